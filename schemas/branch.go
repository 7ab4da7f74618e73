package schemas

// ServerDef returns the $defs name of the server shape that the dialect's
// tool would read entry as, decided from the entry itself: its "type", or,
// where the tool infers the transport, whether it has "url" and "command".
// Validate the entry against Branch(dialect, def) to get errors about its
// fields instead of errors about a failed union.
//
// ok is false when the entry has a type the tool does not know (for example
// "local" for Claude Code, "ws" for Copilot CLI, "HTTP" anywhere: all are
// case-sensitive) or a type that is not a string. The tool skips or rejects
// such an entry; report the type itself, rather than guessing a shape.
//
// The rules are the same as the "server" dispatcher in each schema (its
// if/then chain); TestServerDefMatchesDispatcher keeps the two in step.
func ServerDef(dialect string, entry map[string]any) (def string, ok bool) {
	return DispatchOf(entry).Def(dialect)
}

// Dispatch is all ServerDef reads of an entry: its "type" and which of the
// keys that choose a shape it has. Callers holding the entry in another
// form than a decoded map (a syntax tree) fill it in directly, without
// decoding the entry for every dialect they ask about.
type Dispatch struct {
	// HasType: the entry has "type"; TypeIsString: it is a string, Type.
	HasType, TypeIsString bool
	Type                  string
	// The entry has the key.
	HasURL, HasCommand, HasHTTPURL, HasSettings, HasServerURL bool
}

// DispatchKeys are the keys Dispatch records besides "type".
var DispatchKeys = [...]string{"url", "command", "httpUrl", "settings", "serverUrl"}

// DispatchOf reads a decoded entry's Dispatch.
func DispatchOf(entry map[string]any) Dispatch {
	var d Dispatch
	var typ any
	typ, d.HasType = entry["type"]
	d.Type, d.TypeIsString = typ.(string)
	_, d.HasURL = entry["url"]
	_, d.HasCommand = entry["command"]
	_, d.HasHTTPURL = entry["httpUrl"]
	_, d.HasSettings = entry["settings"]
	_, d.HasServerURL = entry["serverUrl"]
	return d
}

// Def is ServerDef of the entry e describes.
func (e Dispatch) Def(dialect string) (def string, ok bool) {
	hasType, hasURL, hasCommand := e.HasType, e.HasURL, e.HasCommand
	t, isString := e.Type, e.TypeIsString
	if dialect == VSCodeDotMCP {
		return vscodeDotMCPDef(e)
	}
	if hasType && !isString {
		return "", false
	}
	// urlOnly is how Copilot CLI, VS Code and Cursor infer a remote server.
	urlOnly := hasURL && !hasCommand

	switch dialect {
	case ClaudeCode:
		// No inference: without type an entry is stdio, even with a url.
		switch {
		case !hasType, t == "stdio":
			return "stdioServer", true
		case t == "sse":
			return "sseServer", true
		case t == "http", t == "streamable-http":
			return "httpServer", true
		case t == "ws":
			return "wsServer", true
		}
	case ClaudeDesktop:
		// The file has only stdio servers; a url entry gets stdio's errors
		// (command missing, url not allowed), which is what it needs to hear.
		return "stdioServer", true
	case CopilotCLI:
		switch {
		case !hasType && urlOnly:
			return "remoteServer", true
		case !hasType, t == "local", t == "stdio":
			return "localServer", true
		case t == "http", t == "streamable-http", t == "sse":
			return "remoteServer", true
		}
	case Cursor:
		switch {
		case !hasType && urlOnly:
			return "remoteServer", true
		case !hasType, t == "stdio":
			return "stdioServer", true
		case t == "sse", t == "streamable-http", t == "http":
			return "remoteServer", true
		}
	case VSCode:
		switch {
		case !hasType && urlOnly:
			return "httpServer", true
		case !hasType, t == "stdio":
			return "stdioServer", true
		case t == "http", t == "sse":
			return "httpServer", true
		}
	case GeminiCLI:
		// httpUrl beats url, and url beats command (verified, 0.61.0); a
		// url is Streamable HTTP unless type is "sse". A type Gemini CLI
		// does not know ("ws") is warned about, and the entry is used as
		// written: it has no shape.
		hasHTTPURL := e.HasHTTPURL
		switch {
		case hasType && t != "stdio" && t != "sse" && t != "http":
		case hasHTTPURL:
			return "httpServer", true
		case hasURL && t == "sse":
			return "sseServer", true
		case hasURL:
			return "httpServer", true
		default:
			return "stdioServer", true
		}
	case RooCode:
		// command makes a stdio server; a url needs its type ("sse" or
		// "streamable-http"): without one, read it as Streamable HTTP so
		// that the missing type is what is reported (Roo Code skips the
		// entry: "Configuration with 'url' must explicitly specify
		// 'type'"). command beside a url is read as stdio, where url is
		// not allowed.
		switch {
		case !hasType && urlOnly:
			return "httpServer", true
		case !hasType, t == "stdio":
			return "stdioServer", true
		case t == "sse":
			return "sseServer", true
		case t == "streamable-http":
			return "httpServer", true
		}
	case Zed:
		// No type: Zed tries the shapes in order (an untagged enum):
		// command, then url, then an extension's settings. An entry with
		// none of them gets stdio's errors (command missing).
		hasSettings := e.HasSettings
		switch {
		case hasCommand:
			return "stdioServer", true
		case hasURL:
			return "httpServer", true
		case hasSettings:
			return "extensionServer", true
		}
		return "stdioServer", true
	case Kiro:
		// No type: url without command is a remote server.
		if urlOnly {
			return "remoteServer", true
		}
		return "stdioServer", true
	case Windsurf:
		// No type: serverUrl (Windsurf's spelling) or url without
		// command is a remote server.
		hasServerURL := e.HasServerURL
		if (hasURL || hasServerURL) && !hasCommand {
			return "remoteServer", true
		}
		return "stdioServer", true
	case CodexCLI:
		// No type: command makes a stdio server (a url beside it is then
		// an error of its own), url alone a streamable-HTTP one. With
		// neither, Codex says "invalid transport": read as stdio, the
		// missing command is what to report.
		if hasURL && !hasCommand {
			return "httpServer", true
		}
		return "stdioServer", true
	case OpenCode:
		// type is required for real servers. Without it, command or url
		// still says which shape the user meant, so the error is "type is
		// missing" rather than "command is not allowed"; an entry with
		// neither is the {"enabled": ...} override.
		switch {
		case t == "local", !hasType && hasCommand:
			return "localServer", true
		case t == "remote", !hasType && hasURL:
			return "remoteServer", true
		case !hasType:
			return "enabledOverride", true
		}
	}
	return "", false
}

// vscodeDotMCPDef is how VS Code 1.139 reads an entry of the workspace
// root .mcp.json (bSe in its workbench.js): a type that is not a string
// counts as absent; "stdio", "http", "streamable-http" and "sse" choose
// the shape; without type, url without command makes an HTTP server, and
// anything else is read as stdio (with neither, the missing command is
// what to report). Any other type has no shape: VS Code leaves the entry
// out. (VS Code also takes a url beside a command that is not a non-empty
// string as HTTP; such an entry is reported against the stdio shape.)
func vscodeDotMCPDef(e Dispatch) (string, bool) {
	t, hasURL, hasCommand := e.Type, e.HasURL, e.HasCommand
	switch {
	case t == "stdio":
		return "stdioServer", true
	case t == "http", t == "streamable-http", t == "sse":
		return "httpServer", true
	case t != "":
		return "", false
	case hasURL && !hasCommand:
		return "httpServer", true
	}
	return "stdioServer", true
}
