package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryFormatSaysWhatIsMissing: a recording whose rings lost records
// says so in every output decode writes, where that output's reader shows
// it: the text's notes, the page's notes, JSON's otherData and an instant,
// Perfetto's instants, speedscope's name, a key of Android's method trace,
// pprof's comments, the bottom frame of folded stacks, and the PNG's lines
// under its title (drawn: flamepng's TestRenderNotes).
func TestEveryFormatSaysWhatIsMissing(t *testing.T) {
	classes := threadsProgram(t)
	trace, methodMap, _ := recordThreads(t, classes, nil, nil, []string{"-Dtracebeat.budget=1k"}, 4, 50)
	dir := t.TempDir()
	decodeTo := func(format, name string) []byte {
		t.Helper()
		path := filepath.Join(dir, name)
		code, _, stderr := runDecodeArgs("--map", methodMap, "--format", format, "-o", path, trace)
		require.Equal(t, exitOK, code, stderr)
		require.Contains(t, stderr, "lost", "decode's own note")
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		return data
	}
	const lost = "lost"

	var doc struct {
		TraceEvents []traceEventJSON `json:"traceEvents"`
		OtherData   struct {
			Notes []string `json:"tracebeat_notes"`
		} `json:"otherData"`
	}
	require.NoError(t, json.Unmarshal(decodeTo("json", "t.json"), &doc))
	assert.Contains(t, strings.Join(doc.OtherData.Notes, "\n"), lost, "json: otherData")
	instant := false
	for _, e := range doc.TraceEvents {
		instant = instant || e.Ph == "i" && strings.HasPrefix(e.Name, "note: ") && strings.Contains(e.Name, lost)
	}
	assert.True(t, instant, "json: an instant that says it")

	assert.Contains(t, string(decodeTo("perfetto", "t.pftrace")), "note: ", "perfetto")
	assert.Contains(t, string(decodeTo("perfetto", "t.pftrace")), lost, "perfetto")

	var ss struct{ Name string }
	require.NoError(t, json.Unmarshal(decodeTo("speedscope", "t.speedscope.json"), &ss))
	assert.Contains(t, ss.Name, lost, "speedscope: the file's name")

	art := decodeTo("art", "t.trace")
	key, _, _ := bytes.Cut(art, []byte("*end\n"))
	assert.Contains(t, string(key), "tracebeat-note=", "art: a key")
	assert.Contains(t, string(key), lost)
	if dmtracedump, err := exec.LookPath("dmtracedump"); err == nil {
		got, err := exec.Command(dmtracedump, "-o", filepath.Join(dir, "t.trace")).CombinedOutput()
		require.NoError(t, err, "dmtracedump reads a trace with notes: %s", got)
		assert.Contains(t, string(got), "worker-0")
	}

	html := string(decodeTo("html", "t.html"))
	assert.Contains(t, html, lost, "html: the page's notes")

	gz, err := gzip.NewReader(bytes.NewReader(decodeTo("pprof", "t.pb.gz")))
	require.NoError(t, err)
	pb, err := io.ReadAll(gz)
	require.NoError(t, err)
	assert.Contains(t, string(pb), "tracebeat: ", "pprof: a comment")
	got, err := exec.Command("go", "tool", "pprof", "-comments", filepath.Join(dir, "t.pb.gz")).CombinedOutput()
	require.NoError(t, err, "%s", got)
	assert.Contains(t, string(got), lost, "go tool pprof -comments shows it")

	folded := strings.Split(strings.TrimSpace(string(decodeTo("collapsed", "t.folded"))), "\n")
	require.NotEmpty(t, folded)
	for _, l := range folded {
		require.True(t, strings.HasPrefix(l, "[tracebeat: ") && strings.Contains(strings.SplitN(l, ";", 2)[0], lost), "folded: %s", l)
	}
}
