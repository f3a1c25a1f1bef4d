package instrument_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest"
	"go.uber.org/zap/zaptest/observer"

	"github.com/tracebeat/tracebeat/instrument"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/methodmap"
)

// tracedMethods, methodMapOf and plannedMapOf read a result's maps,
// failing the test on an error.
func tracedMethods(t testing.TB, res *instrument.Result) []instrument.TracedMethod {
	t.Helper()
	traced, err := res.TracedMethods()
	require.NoError(t, err)
	return traced
}

func methodMapOf(t testing.TB, res *instrument.Result) *methodmap.Map {
	t.Helper()
	m, err := res.MethodMap()
	require.NoError(t, err)
	return m
}

func plannedMapOf(t testing.TB, res *instrument.Result) *methodmap.Map {
	t.Helper()
	m, err := res.PlannedMap()
	require.NoError(t, err)
	return m
}

// TestResultHasOneShape: a run that patched its last result (a delta run)
// answers every question a run that planned every method answers, with
// the same answers: the maps as lists and as texts, the traced methods,
// the ignored list.
func TestResultHasOneShape(t *testing.T) {
	jar := fixturesJar(t)
	cache, mapPath := t.TempDir(), filepath.Join(t.TempDir(), "methodMapping.txt")
	run := func() *instrument.Result {
		res, err := instrument.Run(context.Background(), instrument.Options{
			Inputs: []string{jar}, Output: t.TempDir(), Workers: 2,
			Cache: cache, CacheKey: "test-rules", MapPath: mapPath, Lists: true,
			Log: zaptest.NewLogger(t, zaptest.Level(zap.DebugLevel)),
		})
		require.NoError(t, err)
		require.NoError(t, res.KeepMap())
		return res
	}
	full := run()
	require.Zero(t, full.CachedScans, "the first run plans every method")
	delta := run()
	require.Equal(t, full.Classes, delta.CachedScans, "the second run patches the first's result")

	assert.Equal(t, methodMapOf(t, full), methodMapOf(t, delta))
	assert.Equal(t, plannedMapOf(t, full), plannedMapOf(t, delta))
	assert.Equal(t, tracedMethods(t, full), tracedMethods(t, delta))
	assert.Equal(t, full.Ignored, delta.Ignored)
	assert.NotEmpty(t, full.Ignored)
	fullMap, fullIgnore, err := full.MapTexts()
	require.NoError(t, err)
	deltaMap, deltaIgnore, err := delta.MapTexts()
	require.NoError(t, err)
	assert.Equal(t, string(fullMap), string(deltaMap))
	assert.Equal(t, string(fullIgnore), string(deltaIgnore))
	for _, res := range []*instrument.Result{full, delta} {
		var m, ig bytes.Buffer
		require.NoError(t, res.WriteMethodMap(&m))
		require.NoError(t, res.WriteIgnoreMap(&ig))
		assert.Equal(t, string(fullMap), m.String())
		assert.Equal(t, string(fullIgnore), ig.String())
	}
}

// TestResultWithoutMapPath: a run without a map path lays the maps out
// only when asked, and then as WriteMethodMap writes them.
func TestResultWithoutMapPath(t *testing.T) {
	_, res := runPipeline(t, rewrite.ModeBeat, 2, fixturesJar(t))
	var m, ig bytes.Buffer
	require.NoError(t, res.WriteMethodMap(&m))
	require.NoError(t, res.WriteIgnoreMap(&ig))
	mapText, ignoreText, err := res.MapTexts()
	require.NoError(t, err)
	assert.Equal(t, m.String(), string(mapText))
	assert.Equal(t, ig.String(), string(ignoreText))
	parsed, err := methodmap.ParseMap(bytes.NewReader(mapText), "map")
	require.NoError(t, err)
	for i := range parsed.Entries {
		parsed.Entries[i].Line = 0
	}
	assert.Equal(t, methodMapOf(t, res).Entries, parsed.Entries)
}

// TestDeltaRunGivesTheKeptReport: a delta run that leaves the ignored
// methods as they were gives the report the last run kept, when its head
// (counts and rules) is the same, and lays it out again otherwise or
// when the kept one is damaged: always the text methodmap.ReportText
// lays out.
func TestDeltaRunGivesTheKeptReport(t *testing.T) {
	jar := fixturesJar(t)
	cache, mapPath, out := t.TempDir(), filepath.Join(t.TempDir(), "methodMapping.txt"), t.TempDir()
	one := []methodmap.RuleCount{{Rule: "-keepclass a/B", Origin: "rules.txt:1", Classes: 1, Methods: 2}}
	other := []methodmap.RuleCount{{Rule: "-keepclass a/B", Origin: "rules.txt:1", Classes: 1, Methods: 3}}
	// run gives the report of a run with rules and whether it was the kept one.
	run := func(rules []methodmap.RuleCount) (text []byte, kept bool) {
		core, logs := observer.New(zapcore.DebugLevel)
		res, err := instrument.Run(context.Background(), instrument.Options{
			Inputs: []string{jar}, Output: out, Workers: 2,
			Cache: cache, CacheKey: "test-rules", MapPath: mapPath, Lists: true, Log: zap.New(core),
		})
		require.NoError(t, err)
		text = res.ReportText(rules)
		assert.Equal(t, string(methodmap.ReportText(res.NumTraced(), res.Ignored, rules)), string(text))
		require.NoError(t, res.KeepMap())
		return text, logs.FilterMessage("cache: report unchanged").Len() == 1
	}
	first, kept := run(one)
	assert.False(t, kept, "a full run lays its report out")
	again, kept := run(one)
	assert.True(t, kept, "nothing changed: the kept report")
	assert.Equal(t, string(first), string(again))
	_, kept = run(other)
	assert.False(t, kept, "another rule count: laid out again")
	_, kept = run(other)
	assert.True(t, kept, "and kept for the next run")

	reports, err := filepath.Glob(filepath.Join(cache, "v2", "runs", "*.report"))
	require.NoError(t, err)
	require.Len(t, reports, 1)
	data, err := os.ReadFile(reports[0])
	require.NoError(t, err)
	data[len(data)/2] ^= 1
	require.NoError(t, os.WriteFile(reports[0], data, 0o644))
	_, kept = run(other)
	assert.False(t, kept, "a damaged kept report is not given")
}
