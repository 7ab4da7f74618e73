//go:build unix

package cache

import (
	"io/fs"
	"syscall"
	"time"
)

// openNonBlocking makes opening a FIFO return at once instead of waiting
// for a writer; on a regular file it changes nothing.
const openNonBlocking = syscall.O_NONBLOCK

// fileID is what tells one version of a file from another without
// reading it.
type fileID struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64 // nanoseconds
}

func idOf(info fs.FileInfo) fileID {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{size: info.Size(), mtime: info.ModTime().UnixNano()}
	}
	return fileID{
		dev: uint64(st.Dev), ino: uint64(st.Ino), size: st.Size,
		mtime: info.ModTime().UnixNano(),
		ctime: changeTime(st),
	}
}

// latest is the most recent of the file's times.
func (id fileID) latest() time.Time { return time.Unix(0, max(id.mtime, id.ctime)) }
