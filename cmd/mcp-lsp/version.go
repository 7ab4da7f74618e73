package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// version and commit are stamped by scripts/release.sh with
// -ldflags "-X main.version=v1.2.3 -X main.commit=<sha>". Without them
// (go build, go install) they come from the build info: the module version
// for `go install …@v1.2.3`, the VCS revision for a build in a checkout.
var (
	version = ""
	commit  = ""
)

// buildVersion returns the version and commit this binary reports, each
// "" when unknown. A checkout with uncommitted changes gets "-dirty" on
// its commit, so a locally modified build is never taken for a release.
func buildVersion() (ver, rev string) {
	ver, rev = version, commit
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ver, rev
	}
	if ver == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		ver = info.Main.Version
	}
	if rev == "" {
		var modified bool
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if rev != "" && modified {
			rev += "-dirty"
		}
	}
	return ver, rev
}

// versionLine is what `mcp-lsp --version` prints:
//
//	mcp-lsp v1.2.3 (commit 0123abc…, go1.26.0 linux/amd64)
func versionLine() string {
	ver, rev := buildVersion()
	if ver == "" {
		ver = "devel"
	}
	details := []string{}
	if rev != "" {
		details = append(details, "commit "+rev)
	}
	details = append(details, runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH)
	return fmt.Sprintf("mcp-lsp %s (%s)", ver, strings.Join(details, ", "))
}
