package classfile_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	cf "github.com/tracebeat/tracebeat/classfile"
)

// fixtureCode is the Code attribute of one fixture method.
type fixtureCode struct {
	where string // set, class and method index, for messages
	pool  *cf.ConstantPool
	data  []byte
}

// fixtureCodes lists the Code attribute of every method of the fixtures.
func fixtureCodes(t *testing.T) []fixtureCode {
	t.Helper()
	var out []fixtureCode
	for set, classes := range fixtureSets(t) {
		for _, name := range sortedNames(classes) {
			c, err := cf.Parse(classes[name])
			require.NoError(t, err)
			for i := range c.Methods {
				if a, ok := c.FindAttribute(c.Methods[i].Attributes, "Code"); ok {
					out = append(out, fixtureCode{fmt.Sprintf("%s %s method %d", set, name, i), c.Pool, a.Data})
				}
			}
		}
	}
	return out
}

// TestAppendOpcodesMatchesDecode: the cheap opcode scan reads every
// fixture method's code as the full decoder does (a wide prefix folded
// into the opcode it modifies).
func TestAppendOpcodesMatchesDecode(t *testing.T) {
	codes := fixtureCodes(t)
	require.Greater(t, len(codes), 100)
	for _, fc := range codes {
		code, err := cf.DecodeCode(fc.pool, fc.data)
		require.NoError(t, err, fc.where)
		var want []byte
		for _, in := range code.Insns {
			want = append(want, byte(in.Op))
		}
		raw, err := cf.CodeBytes(fc.data)
		require.NoError(t, err)
		got, err := cf.AppendOpcodes([]byte{0xEE}, raw)
		require.NoError(t, err, fc.where)
		require.Equal(t, append([]byte{0xEE}, want...), got, fc.where)
	}
}

// TestAppendOpcodesRefuses: each way a code array can be cut or wrong,
// with where it is.
func TestAppendOpcodesRefuses(t *testing.T) {
	tests := []struct {
		name string
		code []byte
		want string
		ops  []byte // what was read before the error
	}{
		{"unknown opcode", []byte{0x00, 0xcb}, "offset 1: unknown opcode 0xCB", []byte{0x00}},
		{"wide at the end", []byte{0xc4}, "wide truncated", nil},
		{"wide of a non-local", []byte{0xc4, 0x00, 0, 0}, "wide applied to 0x00", nil},
		{"wide iload cut", []byte{0xc4, 0x15, 0}, "truncated", nil},
		{"wide iinc cut", []byte{0xc4, 0x84, 0, 1, 0}, "truncated", nil},
		{"sipush cut", []byte{0x11, 0}, "sipush truncated", nil},
		{"goto_w cut", []byte{0xc8, 0, 0, 0}, "goto_w truncated", nil},
		{"tableswitch header cut", []byte{0xaa, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, "tableswitch truncated", nil},
		{"tableswitch low > high", []byte{0xaa, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1}, "tableswitch low > high", nil},
		{"tableswitch targets cut", []byte{0xaa, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0}, "tableswitch truncated", nil},
		{"lookupswitch header cut", []byte{0xab, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, "lookupswitch truncated", nil},
		{"lookupswitch pairs negative", []byte{0xab, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}, "lookupswitch with -1 pairs", nil},
		{"lookupswitch pairs cut", []byte{0xab, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}, "lookupswitch truncated", nil},
	}
	for _, tt := range tests {
		got, err := cf.AppendOpcodes(nil, tt.code)
		require.Error(t, err, tt.name)
		assert.Contains(t, err.Error(), tt.want, tt.name)
		assert.Equal(t, tt.ops, got, tt.name)
	}
	// Exactly sized forms are accepted: a switch whose last target ends the
	// code, a wide iinc, a tableswitch of one key at padding 0 and 3.
	for _, tt := range []struct {
		code, ops []byte
	}{
		{[]byte{0xc4, 0x84, 0, 1, 0, 2}, []byte{0x84}},
		{[]byte{0xc4, 0x15, 0, 1, 0xb1}, []byte{0x15, 0xb1}},
		{[]byte{0xaa, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0}, []byte{0xaa}},
		{[]byte{0x00, 0x00, 0x00, 0xaa, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0}, []byte{0, 0, 0, 0xaa}},
		{[]byte{0xab, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 0}, []byte{0xab}},
		{[]byte{0xab, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xb1}, []byte{0xab, 0xb1}},
		{[]byte{0xc8, 0, 0, 0, 0}, []byte{0xc8}},
	} {
		ops, err := cf.AppendOpcodes(nil, tt.code)
		require.NoError(t, err, "% x", tt.code)
		assert.Equal(t, tt.ops, ops, "% x", tt.code)
	}
}

func TestCodeBytes(t *testing.T) {
	got, err := cf.CodeBytes(code(1, 1, []byte{0x00, 0xb1}))
	require.NoError(t, err)
	assert.Equal(t, []byte{0x00, 0xb1}, got)
	got, err = cf.CodeBytes(code(1, 1, []byte{0xb1})[:9])
	require.NoError(t, err, "code_length reaching the attribute's end exactly")
	assert.Equal(t, []byte{0xb1}, got)
	_, err = cf.CodeBytes(code(1, 1, []byte{0xb1, 0xb1})[:9])
	assert.ErrorContains(t, err, "code_length 2 exceeds the attribute")
	_, err = cf.CodeBytes(make([]byte, 7))
	assert.ErrorContains(t, err, "truncated header")
	got, err = cf.CodeBytes(make([]byte, 8))
	require.NoError(t, err)
	assert.Empty(t, got)
}

func TestOpcodePredicates(t *testing.T) {
	returns := map[cf.Opcode]bool{0xac: true, 0xad: true, 0xae: true, 0xaf: true, 0xb0: true, 0xb1: true}
	branches := map[cf.Opcode]bool{0xa7: true, 0xa8: true, 0xc6: true, 0xc7: true, 0xc8: true, 0xc9: true}
	for op := 0x99; op <= 0xa6; op++ { // if<cond>, if_icmp<cond>, if_acmp<cond>
		branches[cf.Opcode(op)] = true
	}
	for op := range 256 {
		o := cf.Opcode(op)
		assert.Equal(t, returns[o], o.IsReturn(), "%s", o)
		assert.Equal(t, branches[o], o.IsBranch(), "%s", o)
		assert.Equal(t, op <= 0xc9, o.Defined(), "%s", o)
	}
}
