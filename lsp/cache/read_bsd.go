//go:build unix && !linux

package cache

import "syscall"

// changeTime is 0 where Stat_t spells it differently per system: the
// modification time, inode and size still identify a version.
func changeTime(*syscall.Stat_t) int64 { return 0 }
