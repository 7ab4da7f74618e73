package rules

// Resolver answers the few questions about the user's machine that some
// rules need: can this command be started, does this file exist.
//
// Analysis itself never touches the file system (it must give the same
// answer in an editor, in CI and in tests), so the caller injects a
// Resolver in FileInput; a nil Resolver turns the rules that need one off
// (command-not-found, missing-file-reference). Tests use a fake.
//
// An implementation must only look, never run: no command is executed,
// not even with --version, because the file being analysed may come from
// an untrusted repository.
type Resolver interface {
	// LookPath reports whether command names a program that can be
	// started. A bare name ("npx") is searched on PATH (with PATHEXT on
	// Windows); a relative path ("./bin/server") is taken relative to
	// dir; an absolute path is checked as it is. Analysis passes dir only
	// when it knows the directory the tools start the server in.
	LookPath(command string, dir string) bool
	// FileExists reports whether path names an existing file. Analysis
	// passes absolute paths, or paths starting with "~/" that the
	// resolver resolves against the user's home directory.
	FileExists(path string) bool
}
