package rules

// Byte classes the interpolation and secret rules share.

func urlAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func urlDigit(c byte) bool { return '0' <= c && c <= '9' }
