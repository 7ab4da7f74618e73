package rules

import "testing"

// Gemini CLI reads security.folderTrust.enabled from the user settings
// only (verified with 0.61.0): in the workspace file it turns nothing off.
func TestTrustSwitchOutsideUserSettings_VerifiedGemini0_61(t *testing.T) {
	src := `{"security": {"folderTrust": {"enabled": false}}, "mcpServers": {"fs": {"command": "/bin/true"}}}`
	wantOne(t, semantics(t, ".gemini/settings.json", src), CodeSettingIgnoredHere, spanOf(t, src, `"enabled"`, 0), SeverityWarning,
		"Gemini CLI reads security.folderTrust.enabled only from the Gemini CLI user settings: here it has no effect on folder trust")
	wantNone(t, semantics(t, "~/.gemini/settings.json", src), CodeSettingIgnoredHere)
	// "mcp" is a setting of Gemini CLI's own format, not OpenCode's map.
	wantNone(t, semantics(t, ".gemini/settings.json", `{"mcp": {"allowed": ["fs"]}, "mcpServers": {}}`), CodeWrongServerMapKey)
}
