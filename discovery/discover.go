package discovery

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Options configure [Discover].
//
// Paths (Folders, the Env directories, Found.Path) are absolute,
// slash-separated OS paths. FS is rooted at "/": the file at "/a/b" is the
// name "a/b" in FS. Windows drive-letter paths are out of scope for now: a
// path that does not start with "/" is reported in Result.Errors and not
// read. (Supporting them means an FS whose first element is the volume,
// "C:/Users/...", and a resolver that knows where a volume's root is.)
type Options struct {
	// FS is the file system, rooted at "/"; nil means os.DirFS("/").
	// When it implements fs.ReadLinkFS (os.DirFS and fstest.MapFS do),
	// symbolic links are resolved to identify files; otherwise paths are
	// compared as written.
	FS fs.FS
	// Env locates the user-level files and decides whether names compare
	// without case (Env.CaseInsensitive). It is never read from the
	// process: the caller passes registry.OSEnv() or a fake home.
	Env registry.Env
	// Registry defines the file kinds and the tools' profiles; nil means
	// registry.Default().
	Registry *registry.Registry
	// Folders are the workspace folders, absolute.
	Folders []string
	Limits  Limits
}

// Limits bound the tree walk so that a huge, deep or slow tree (a home
// directory opened as a workspace, a network mount) cannot stall the
// language server. Zero values take the defaults. What a limit stopped is
// reported in Result.Truncated, never silently dropped.
type Limits struct {
	// MaxDepth is how many directory levels below a folder are searched
	// (the folder's own files are level 0).
	MaxDepth int
	// MaxFiles is the number of directory entries the tree walk visits,
	// over all folders together: it bounds the total work, not the work
	// per folder. (Passes 1 and 2 look up a few dozen fixed names and are
	// bounded by the time limit only.)
	MaxFiles int
	// Timeout bounds the whole discovery. A deadline or cancellation of
	// the context passed to Discover applies as well.
	Timeout time.Duration
	// Now is the clock the Timeout is measured with; nil means time.Now.
	// Tests inject a clock to make the time limit deterministic.
	Now func() time.Time
}

// Default limits. A configuration file deeper than 12 levels is not
// something a tool reads for its launch directory; 100,000 entries take
// well under a second on a local disk, and 3 s is what an editor user waits
// before thinking the server is stuck.
const (
	DefaultMaxDepth = 12
	DefaultMaxFiles = 100_000
	DefaultTimeout  = 3 * time.Second
)

// Values of Found.Origin, in order of preference: a file reached in more
// than one way takes the first that applies.
const (
	// OriginUser: a user-level file (a home kind's path, or a profile
	// file or gate file that does not depend on the launch directory).
	OriginUser = "user"
	// OriginTree: a file inside a workspace folder.
	OriginTree = "tree"
	// OriginAncestor: a named file a tool reads above a workspace folder
	// (.mcp.json up to /, opencode.json up to the git root...).
	OriginAncestor = "ancestor"
)

// Found is one configuration file.
type Found struct {
	// Path is where the file was reached, as the user wrote it (a
	// workspace folder's path plus the file's place in it), not its
	// canonical path: editors and the effective-configuration engine name
	// files relative to the folder the user opened.
	Path string
	// Kind is the registry's kind of Path. It is nil for a file read only
	// for a gate's state, which is no registry kind (Copilot's
	// ~/.copilot/config.json with trustedFolders).
	Kind *registry.FileKind
	// Origin is OriginUser, OriginTree or OriginAncestor.
	Origin string
	// Aliases are the other paths at which the same file was reached
	// (through a symbolic link, or in another case on a case-insensitive
	// system), sorted. A tool may read an alias as another kind: call
	// Registry.Match on it when that matters.
	Aliases []string
}

// Result is what Discover found.
type Result struct {
	// Files are sorted by Path; each file is listed once, whatever the
	// number of paths it was reached by.
	Files []Found
	// GitRoots maps each workspace folder, as given, to its git root ("" if
	// none); see [GitRoot].
	GitRoots map[string]string
	// Truncated says, for people, what a limit or a cancellation stopped.
	// Empty when the search was complete.
	Truncated []string
	// Errors are the I/O problems met on the way; a missing file is not
	// one. They never stop the rest of the search.
	Errors []error
}

// Discover finds every configuration file that affects the workspace
// folders, in three passes:
//
//  1. user-level files: each registry kind located at home (resolved with
//     Env), and each file and gate file of a tool profile that does not
//     depend on the launch directory;
//  2. for each folder, the files tools read above it, and only those: the
//     names of each profile layer's walk, in each directory from the
//     folder up to the layer's boundary ("root": up to "/"; "git-root": up
//     to the git root, or the folder alone when there is none), and the
//     profile files relative to {launchDir} or {gitRoot};
//  3. the tree inside each folder: every file the registry matches,
//     breadth first (so that when a limit stops the walk, the shallow
//     levels, where configuration lives, have been searched everywhere),
//     skipping dependency and VCS directories (see skipDirs).
//
// Symbolic links to directories are not followed by the tree walk (a loop
// cannot make it hang, and a link out of the project, to a shared checkout
// or a dependency cache, holds nothing a tool reads for this project, the
// same reason ripgrep and editors' file watchers do not follow them), but
// a symbolic link to a file that matches is included. The named lookups of
// passes 1 and 2 go through links, like the tools' own opens.
//
// Each file is identified by its canonical path: symbolic links resolved
// component by component, and case folded when Env.CaseInsensitive(). A
// file reached several ways is listed once, with the Origin preferred in
// the order user, tree, ancestor.
//
// Tools take their working directory from getcwd, which returns it with
// symbolic links resolved; so when a folder's path goes through a link,
// pass 2 also looks above its canonical path.
func Discover(ctx context.Context, opts Options) Result {
	d := newDiscoverer(ctx, opts)
	d.userFiles()
	for _, f := range d.folders {
		d.ancestors(f.path, f.gitRoot)
		if f.canon != f.path {
			d.ancestors(f.canon, d.res.gitRoot(f.canon))
		}
		d.walk(f)
	}
	return d.result()
}

// discoverer holds the state of one Discover call.
type discoverer struct {
	fsys   fs.FS
	reg    *registry.Registry
	env    registry.Env
	fold   bool
	limits Limits
	res    *resolver

	ctx      context.Context
	deadline time.Time
	visited  int
	stopped  string // why the search stopped, once it has

	folders  []folder
	byKey    map[string]*entry
	gitRoots map[string]string
	trunc    []string
	errs     []error
	errSeen  map[string]bool
}

// folder is a workspace folder: as given (cleaned) and canonical (equal
// when no symbolic link is involved). name is the canonical FS name.
type folder struct {
	path, canon, name string
	gitRoot           string // of path
}

// entry is one file, by canonical identity.
type entry struct {
	found Found
	rank  int
	paths map[string]bool
}

func newDiscoverer(ctx context.Context, opts Options) *discoverer {
	l := opts.Limits
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxFiles <= 0 {
		l.MaxFiles = DefaultMaxFiles
	}
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	if l.Now == nil {
		l.Now = time.Now
	}
	if opts.FS == nil {
		opts.FS = os.DirFS("/")
	}
	if opts.Registry == nil {
		opts.Registry = registry.Default()
	}
	d := &discoverer{
		fsys:     opts.FS,
		reg:      opts.Registry,
		env:      opts.Env,
		fold:     opts.Env.CaseInsensitive(),
		limits:   l,
		res:      newResolver(opts.FS),
		ctx:      ctx,
		deadline: l.Now().Add(l.Timeout),
		byKey:    map[string]*entry{},
		gitRoots: map[string]string{},
		errSeen:  map[string]bool{},
	}
	// Resolve the folders first: pass 2 needs all of them to tell a file
	// inside some folder (tree) from one above (ancestor).
	for _, p := range opts.Folders {
		d.gitRoots[p] = d.res.gitRoot(p)
		name, ok := toName(p)
		if !ok {
			d.report(fmt.Errorf("workspace folder %s: not an absolute slash-separated path (Windows paths are not supported yet)", p))
			continue
		}
		canon, info, err := d.res.resolve(name)
		switch {
		case err != nil:
			d.report(fmt.Errorf("workspace folder %s: %w", p, err))
			continue
		case !info.IsDir():
			d.report(fmt.Errorf("workspace folder %s: not a directory", p))
			continue
		}
		d.folders = append(d.folders, folder{path: fromName(name), canon: fromName(canon), name: canon, gitRoot: d.gitRoots[p]})
	}
	return d
}

// stop reports whether the search must stop, recording why the first time.
// It is called for every directory entry, so it is kept cheap.
func (d *discoverer) stop() bool {
	if d.stopped != "" {
		return true
	}
	switch {
	case d.ctx.Err() != nil:
		d.stopped = context.Cause(d.ctx).Error()
	case !d.limits.Now().Before(d.deadline):
		d.stopped = fmt.Sprintf("time limit (%v) reached", d.limits.Timeout)
	case d.visited > d.limits.MaxFiles:
		d.stopped = fmt.Sprintf("entry limit (%d entries visited) reached", d.limits.MaxFiles)
	}
	return d.stopped != ""
}

// userFiles is pass 1.
func (d *discoverer) userFiles() {
	var tmpls []string
	for _, k := range d.reg.Kinds() {
		if k.Location == registry.Home {
			tmpls = append(tmpls, k.Paths...)
		}
	}
	for _, t := range d.reg.Tools() {
		if t.Profile == nil {
			continue
		}
		for _, l := range t.Profile.Layers {
			for _, f := range l.Files {
				tmpls = append(tmpls, f.Path)
			}
			tmpls = append(tmpls, l.GateStateFiles()...)
		}
	}
	// Look-alike files, which no tool reads (kinds with notRead entries
	// and no reader), where people put them in their home directory: the
	// kind's "**/.claude/mcp.json" is looked for as ~/.claude/mcp.json, so
	// the file someone got wrong is diagnosed without being opened. Only
	// globs inside a directory: a bare name in the home directory
	// ("**/.claude.json") is a tool's own user file there, or one an
	// override moved elsewhere on purpose.
	for _, k := range d.reg.Kinds() {
		if len(k.Readers) > 0 || len(k.NotRead) == 0 {
			continue
		}
		for _, g := range k.Globs {
			if rest, ok := strings.CutPrefix(g, "**/"); ok && strings.Contains(rest, "/") && !strings.ContainsAny(rest, "*?[{") {
				tmpls = append(tmpls, "{home}/"+rest)
			}
		}
	}
	seen := map[string]bool{}
	for _, t := range tmpls {
		if dependsOnLaunchDir(t) {
			continue
		}
		k := registry.FileKind{Paths: []string{t}}
		for _, p := range k.ResolvePaths(d.env) {
			if seen[p] {
				continue
			}
			seen[p] = true
			if d.stop() {
				d.trunc = append(d.trunc, "user-level files: not all checked: "+d.stopped)
				return
			}
			d.lookup(p, OriginUser)
		}
	}
}

func dependsOnLaunchDir(tmpl string) bool {
	return strings.Contains(tmpl, "{launchDir}") || strings.Contains(tmpl, "{gitRoot}")
}

// ancestors is pass 2 for a launch directory dir with git root gitRoot.
func (d *discoverer) ancestors(dir, gitRoot string) {
	var cands []string
	for _, t := range d.reg.Tools() {
		if t.Profile == nil {
			continue
		}
		for _, l := range t.Profile.Layers {
			if w := l.Walk; w != nil {
				for _, up := range dirsUp(dir, w.Boundary, gitRoot) {
					for _, name := range w.Names {
						cands = append(cands, path.Join(up, name))
					}
				}
			}
			for _, f := range l.Files {
				cands = appendExpanded(cands, f.Path, dir, gitRoot)
			}
			for _, g := range l.GateStateFiles() {
				cands = appendExpanded(cands, g, dir, gitRoot)
			}
		}
	}
	slices.Sort(cands)
	for _, c := range slices.Compact(cands) {
		if d.stop() {
			d.trunc = append(d.trunc, dir+": files above the folder not all checked: "+d.stopped)
			return
		}
		origin := OriginAncestor
		if d.inFolder(c) {
			origin = OriginTree
		}
		d.lookup(c, origin)
	}
}

// dirsUp returns dir and its ancestors up to the boundary, as
// effective.Compute walks them: "git-root" stops at gitRoot, or at dir
// itself without one; any other boundary ("root") goes up to "/".
func dirsUp(dir, boundary, gitRoot string) []string {
	stop := "/"
	if boundary == "git-root" {
		stop = cmpOr(gitRoot, dir)
	}
	var out []string
	for d := dir; ; d = path.Dir(d) {
		out = append(out, d)
		if d == stop || d == "/" {
			return out
		}
	}
}

// appendExpanded appends tmpl expanded for launch directory dir, if it is
// relative to it or to the git root ({gitRoot} is dir without a git root,
// as in effective.Compute).
func appendExpanded(out []string, tmpl, dir, gitRoot string) []string {
	for v, val := range map[string]string{"{launchDir}": dir, "{gitRoot}": cmpOr(gitRoot, dir)} {
		if rest, ok := strings.CutPrefix(tmpl, v); ok {
			return append(out, path.Join(val, rest))
		}
	}
	return out
}

// inFolder reports whether p is inside a workspace folder, by either of
// its paths.
func (d *discoverer) inFolder(p string) bool {
	for _, f := range d.folders {
		if d.within(p, f.path) || d.within(p, f.canon) {
			return true
		}
	}
	return false
}

func (d *discoverer) within(p, dir string) bool {
	if d.fold {
		p, dir = foldCase(p), foldCase(dir)
	}
	return dir == "/" || strings.HasPrefix(p, dir+"/")
}

// report records an I/O problem once (a file looked up by name is often
// listed by the walk too), naming files by their OS path rather than their
// FS name.
func (d *discoverer) report(err error) {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		if !strings.HasPrefix(pe.Path, "/") {
			err = &fs.PathError{Op: pe.Op, Path: fromName(pe.Path), Err: pe.Err}
		}
	}
	if msg := err.Error(); !d.errSeen[msg] {
		d.errSeen[msg] = true
		d.errs = append(d.errs, err)
	}
}

// lookup adds the file at p if it exists and is a regular file.
func (d *discoverer) lookup(p, origin string) {
	name, ok := toName(p)
	if !ok {
		d.report(fmt.Errorf("%s: not an absolute slash-separated path (Windows paths are not supported yet)", p))
		return
	}
	canon, info, err := d.res.resolve(name)
	if err != nil {
		// Absent, or unreadable by us and so by the tool running as the
		// same user: neither is a problem to report.
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) {
			d.report(err)
		}
		return
	}
	if info.Mode().IsRegular() {
		d.add(p, canon, origin)
	}
}

// walk is pass 3: a breadth-first walk of the folder's canonical tree
// (which has no symbolic links on the way, so every directory entered is a
// real one, and the canonical name of each entry is its parent's plus its
// name), reporting paths under the folder as given.
func (d *discoverer) walk(f folder) {
	type dir struct {
		name, path string // canonical FS name, path as given
		depth      int
	}
	queue := []dir{{f.name, f.path, 0}}
	deep, firstDeep := 0, ""
	defer func() {
		if deep > 0 {
			d.trunc = append(d.trunc, fmt.Sprintf("%s: %d directories deeper than %d levels not searched (first: %s)", f.path, deep, d.limits.MaxDepth, firstDeep))
		}
	}()
	for len(queue) > 0 {
		if d.stop() {
			d.trunc = append(d.trunc, fmt.Sprintf("%s: %d directories not searched: %s", f.path, len(queue), d.stopped))
			return
		}
		cur := queue[0]
		queue = queue[1:]
		ents, err := fs.ReadDir(d.fsys, cur.name)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			d.report(err)
		}
		for i, e := range ents {
			d.visited++
			if d.stop() {
				d.trunc = append(d.trunc, fmt.Sprintf("%s: %d directories and %d entries of %s not searched: %s", f.path, len(queue), len(ents)-i, cur.path, d.stopped))
				return
			}
			name, p := path.Join(cur.name, e.Name()), path.Join(cur.path, e.Name())
			switch t := e.Type(); {
			case t.IsDir():
				if skipDirs[e.Name()] {
					continue
				}
				if cur.depth+1 > d.limits.MaxDepth {
					if deep++; deep == 1 {
						firstDeep = p
					}
					continue
				}
				queue = append(queue, dir{name, p, cur.depth + 1})
			case t.IsRegular():
				if _, ok := d.reg.Match(p, d.env); ok {
					d.add(p, name, OriginTree)
				}
			case t&fs.ModeSymlink != 0:
				// Resolved only when the name matches: a link to a
				// directory is never followed, so there is nothing
				// else to learn from it.
				if _, ok := d.reg.Match(p, d.env); !ok {
					continue
				}
				canon, info, err := d.res.resolve(name)
				switch {
				case err != nil:
					if !errors.Is(err, fs.ErrNotExist) {
						d.report(err)
					}
				case info.Mode().IsRegular():
					d.add(p, canon, OriginTree)
				}
			}
		}
	}
}

// add records that the file with canonical FS name canon was reached at p.
// The first path reached with the preferred origin becomes Found.Path.
// Among equals, first is best: the passes look at a folder as given before
// its canonical path, and a named lookup happens before the walk lists the
// same file under another name.
func (d *discoverer) add(p, canon, origin string) {
	key := canon
	if d.fold {
		key = foldCase(key)
	}
	rank := slices.Index([]string{OriginUser, OriginTree, OriginAncestor}, origin)
	e := d.byKey[key]
	if e == nil {
		e = &entry{found: Found{Path: p, Origin: origin}, rank: rank, paths: map[string]bool{}}
		d.byKey[key] = e
	} else if rank < e.rank {
		e.found.Path, e.found.Origin, e.rank = p, origin, rank
	}
	e.paths[p] = true
}

func (d *discoverer) result() Result {
	r := Result{GitRoots: d.gitRoots, Truncated: d.trunc, Errors: d.errs}
	for _, e := range d.byKey {
		f := e.found
		f.Kind, _ = d.reg.Match(f.Path, d.env)
		for p := range e.paths {
			if p != f.Path {
				f.Aliases = append(f.Aliases, p)
			}
		}
		slices.Sort(f.Aliases)
		r.Files = append(r.Files, f)
	}
	slices.SortFunc(r.Files, func(a, b Found) int { return strings.Compare(a.Path, b.Path) })
	return r
}

// foldCase maps s to a case-insensitive key: each rune to the smallest
// rune of its Unicode simple case-folding orbit, the equivalence
// strings.EqualFold uses. (APFS and NTFS also fold; neither is fully
// modelled here, nor is Unicode normalisation.)
func foldCase(s string) string {
	return strings.Map(func(r rune) rune {
		lo := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < lo {
				lo = f
			}
		}
		return lo
	}, s)
}

// toName converts an absolute slash path to an FS name: "/" is ".", "/a/b"
// is "a/b". Backslashes are taken as separators, so a path from
// filepath.Join on Windows without a drive letter still works.
func toName(p string) (string, bool) {
	p = cleanSlash(p)
	if !strings.HasPrefix(p, "/") {
		return "", false
	}
	if p == "/" {
		return ".", true
	}
	return p[1:], true
}

// fromName is the inverse of toName.
func fromName(name string) string {
	if name == "." {
		return "/"
	}
	return "/" + name
}

func cleanSlash(p string) string { return path.Clean(filepath.ToSlash(p)) }

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// maxLinks is how many symbolic links one resolution may follow before it
// is taken for a loop, as Linux's MAXSYMLINKS.
const maxLinks = 40

var errLinkLoop = errors.New("too many levels of symbolic links")

// resolver finds the canonical name of a file in an fs.FS, like
// realpath(3): each component is looked up with Lstat and each symbolic
// link replaced by its target, so the result holds no link. It counts the
// links followed, so a loop ends with an error instead of recursing (the
// fs.FS implementations do not all guard against loops themselves), and
// caches lookups, because the ancestors of several folders and names share
// their directories.
type resolver struct {
	fsys  fs.FS
	links bool // fsys implements fs.ReadLinkFS
	cache map[string]lstatResult
}

type lstatResult struct {
	info   fs.FileInfo
	target string // of a symbolic link
	err    error
}

func newResolver(fsys fs.FS) *resolver {
	_, links := fsys.(fs.ReadLinkFS)
	return &resolver{fsys: fsys, links: links, cache: map[string]lstatResult{}}
}

// lstat looks up name, whose parent directory must be canonical: a
// ReadLinkFS may itself follow links in the parent (fstest.MapFS does),
// which would bypass the loop count.
func (r *resolver) lstat(name string) lstatResult {
	if l, ok := r.cache[name]; ok {
		return l
	}
	var l lstatResult
	if !r.links {
		l.info, l.err = fs.Stat(r.fsys, name)
	} else if l.info, l.err = fs.Lstat(r.fsys, name); l.err == nil && l.info.Mode()&fs.ModeSymlink != 0 {
		l.target, l.err = fs.ReadLink(r.fsys, name)
	}
	r.cache[name] = l
	return l
}

// resolve returns the canonical name of the FS name name and what it is.
// Without fs.ReadLinkFS it cannot see links and returns name as it is.
// A path through something that is not a directory does not exist.
func (r *resolver) resolve(name string) (string, fs.FileInfo, error) {
	if !r.links {
		info, err := fs.Stat(r.fsys, name)
		return name, info, err
	}
	rest := strings.Split(name, "/")
	cur := "."
	var info fs.FileInfo // of cur; nil while not looked up
	hops := 0
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		if c == "" || c == "." {
			continue
		}
		if info != nil && !info.IsDir() {
			return "", nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
		}
		if c == ".." {
			cur, info = path.Dir(cur), nil
			continue
		}
		next := path.Join(cur, c)
		l := r.lstat(next)
		if l.err != nil {
			return "", nil, l.err
		}
		if l.info.Mode()&fs.ModeSymlink == 0 {
			cur, info = next, l.info
			continue
		}
		if hops++; hops > maxLinks {
			return "", nil, &fs.PathError{Op: "stat", Path: name, Err: errLinkLoop}
		}
		target := filepath.ToSlash(l.target)
		if strings.HasPrefix(target, "/") {
			cur = "."
		}
		rest = append(strings.Split(target, "/"), rest...)
		info = nil
	}
	if info == nil {
		var err error
		if cur == "." {
			info, err = fs.Stat(r.fsys, ".")
		} else {
			l := r.lstat(cur)
			info, err = l.info, l.err
		}
		if err != nil {
			return "", nil, err
		}
	}
	return cur, info, nil
}
