// Package lines reads text files line by line with a bound on line length,
// for the state and log files several hook processes share: a corrupt or
// hostile file with a huge line costs at most the bound in memory and
// skips that line instead of ending the read.
package lines

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Each calls fn for every line of r (without the line break, and without a
// trailing "\r"), in order. A line longer than max bytes is skipped and
// counted in skipped. It stops at the first read error other than EOF.
func Each(r io.Reader, max int, fn func(line []byte)) (skipped int, err error) {
	br := bufio.NewReaderSize(r, max+1)
	for {
		line, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			skipped++
			// Drop the rest of the over-long line.
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			if err == io.EOF {
				return skipped, nil
			}
			if err != nil {
				return skipped, err
			}
			continue
		case err == io.EOF:
			if len(line) > 0 {
				fn(bytes.TrimSuffix(line, []byte("\r")))
			}
			return skipped, nil
		case err != nil:
			return skipped, err
		}
		line = bytes.TrimSuffix(line[:len(line)-1], []byte("\r"))
		fn(line)
	}
}
