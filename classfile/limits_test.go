package classfile

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// nops is code of n bytes: n-1 nops and a return.
func nops(n int) *Code {
	c := &Code{MaxStack: 1, MaxLocals: 1}
	for range n - 1 {
		c.Insns = append(c.Insns, Insn{Op: NOP})
	}
	c.Insns = append(c.Insns, Insn{Op: RETURN})
	return c
}

// TestCodeSizeLimit: a method of exactly 65,535 bytes of code encodes; one
// byte more is refused as too large.
func TestCodeSizeLimit(t *testing.T) {
	data, err := nops(65535).Encode()
	require.NoError(t, err)
	require.NotEmpty(t, data)
	_, err = nops(65536).Encode()
	require.True(t, errors.Is(err, ErrCodeTooLarge), "65,536 bytes: %v", err)
}

// branchCode is code whose goto jumps delta bytes (forward over nops, or
// backward to a label before them): the branch stands at its offset.
func branchCode(delta int) *Code {
	c := &Code{MaxStack: 1, MaxLocals: 1}
	target := c.NewLabel()
	if delta > 0 {
		// goto (3 bytes) at 0, nops up to the target at delta, a return there.
		c.Insns = append(c.Insns, Insn{Op: GOTO, Target: target})
		for range delta - 3 {
			c.Insns = append(c.Insns, Insn{Op: NOP})
		}
		c.Insns = append(c.Insns, Insn{Op: RETURN, Mark: target})
		return c
	}
	// The target at 0, nops up to the goto at -delta, which jumps back.
	c.Insns = append(c.Insns, Insn{Op: NOP, Mark: target})
	for range -delta - 1 {
		c.Insns = append(c.Insns, Insn{Op: NOP})
	}
	c.Insns = append(c.Insns, Insn{Op: GOTO, Target: target}, Insn{Op: RETURN})
	return c
}

// TestBranchOffsetLimits: a 16-bit branch reaches +32,767 and -32,768
// bytes; one byte further either way is refused as an overflow (the
// rewriter then leaves the method untouched).
func TestBranchOffsetLimits(t *testing.T) {
	for _, tc := range []struct {
		delta int
		ok    bool
	}{
		{32767, true}, {32768, false}, {-32768, true}, {-32769, false},
	} {
		_, err := branchCode(tc.delta).Encode()
		if tc.ok {
			require.NoError(t, err, "a branch of %+d", tc.delta)
		} else {
			require.True(t, errors.Is(err, ErrBranchOverflow), "a branch of %+d: %v", tc.delta, err)
		}
	}
}
