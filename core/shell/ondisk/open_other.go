//go:build !unix

package ondisk

const openFlags = 0
