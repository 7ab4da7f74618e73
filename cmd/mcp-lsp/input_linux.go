package main

import (
	"io"
	"os"
	"syscall"
	"unsafe"
)

// inputWaiting returns how many bytes wait unread on stdin when it is a
// pipe or a socket (FIONREAD), for the server's diagnostics: they are not
// published for a version that an edit already in the pipe makes stale.
// Nil when stdin cannot tell.
func inputWaiting(stdin io.Reader) func() int {
	f, ok := stdin.(*os.File)
	if !ok {
		return nil
	}
	info, err := f.Stat()
	if err != nil || info.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return nil
	}
	conn, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	return func() int {
		var n int32 // the kernel writes a C int
		var errno syscall.Errno
		conn.Control(func(fd uintptr) {
			_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n)))
		})
		if errno != 0 {
			return 0
		}
		return int(n)
	}
}
