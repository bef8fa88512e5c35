package main

import (
	"github.com/zcode-fence/zcode-fence/core/decisionlog"
	"github.com/zcode-fence/zcode-fence/core/shell/ondisk"
)

// fileRecords converts the files a call tried to read for the log.
func fileRecords(in []ondisk.Record) []decisionlog.FileRecord {
	if len(in) == 0 {
		return nil
	}
	out := make([]decisionlog.FileRecord, len(in))
	for i, r := range in {
		out[i] = decisionlog.FileRecord{Path: r.Path, Status: string(r.Status), Size: r.Size, SHA256: r.SHA256}
	}
	return out
}
