package fix

import "strings"

// SplitCommand splits a command line into words the way a POSIX shell
// would, without expanding anything: blanks separate words, 'single' and
// "double" quotes group (and are removed), and a backslash escapes the
// next character. It returns false for an unterminated quote, where any
// split would be a guess.
//
// A backslash escapes only a blank, a quote or another backslash (and,
// inside double quotes, only " and \): elsewhere it is kept, so a Windows
// path such as C:\tools\server.exe survives. "$VAR" stays as written; the
// tools, not a shell, expand variables in these files.
func SplitCommand(s string) ([]string, bool) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, false
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i == len(s) {
				return nil, false
			}
			inWord = true
		case c == '\\' && i+1 < len(s) && strings.IndexByte(" \t'\"\\", s[i+1]) >= 0:
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, true
}
