//go:build !unix

package cache

import (
	"io/fs"
	"time"
)

// openNonBlocking is 0 where there are no FIFOs to block on.
const openNonBlocking = 0

// fileID is what tells one version of a file from another without
// reading it: without inode numbers, its size and modification time.
type fileID struct {
	size  int64
	mtime int64
}

func idOf(info fs.FileInfo) fileID {
	return fileID{size: info.Size(), mtime: info.ModTime().UnixNano()}
}

func (id fileID) latest() time.Time { return time.Unix(0, id.mtime) }
