package javatest

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInstrumentFixturesVerify(t *testing.T) {
	RequireJava(t)
	r := Verify(t, Jar(t, InstrumentFixtures(t)), BeatStub(t))
	assert.Zero(t, r.Failures(), "%s", r)
	assert.Equal(t, r.Classes, r.Verified)
	for _, main := range InstrumentPrograms {
		assert.Contains(t, r.Classes, main)
	}
}

// The uninstrumented programs never call the stub, print one line named
// after themselves, and print the same in one shared JVM (AllPrograms) as
// alone: their output does not depend on what ran before.
func TestInstrumentProgramsRunUninstrumented(t *testing.T) {
	RequireJava(t)
	classes := InstrumentFixtures(t)
	var lines []string
	for _, main := range InstrumentPrograms {
		t.Run(main, func(t *testing.T) {
			stdout, stderr, err := BeatStubJVM(t, classes).Run(t, main)
			require.NoError(t, err, stderr)
			name := strings.ToLower(strings.TrimPrefix(main, "ins."))
			assert.True(t, strings.HasPrefix(stdout, name+": "), "output %q", stdout)
			assert.Equal(t, 1, strings.Count(stdout, "\n"), "output %q", stdout)
			report, err := ParseStubReport(stderr)
			require.NoError(t, err)
			assert.Equal(t, StubReport{FocusByClass: map[string]int{}}, report)
			lines = append(lines, stdout)
		})
	}
	stdout, stderr, err := BeatStubJVM(t, classes).Run(t, "ins.AllPrograms")
	require.NoError(t, err, stderr)
	assert.Equal(t, strings.Join(lines, ""), stdout)
}

// The generated ins.Big methods must keep sitting at the limits they exist
// to test; a javac change that moves them would silently weaken the tests.
func TestBigMethodsSitAtTheLimits(t *testing.T) {
	RequireJava(t)
	class := ClassFiles(t, InstrumentFixtures(t))["ins/Big.class"]
	codeLength := func(method string) int {
		off, err := codeAttributeOffset(class, method, "(I)I")
		require.NoError(t, err)
		return int(binary.BigEndian.Uint32(class[off+4:]))
	}
	branch := codeLength("nearBranchLimit")
	assert.True(t, branch > 32767-40 && branch < 32767+20, "nearBranchLimit code length %d", branch)
	code := codeLength("nearCodeLimit")
	assert.True(t, code > 65535-40 && code <= 65535, "nearCodeLimit code length %d", code)
}
