package classfile_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"path"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	cf "github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/internal/javatest"
)

// fixtureSets are the javac-compiled fixtures, by name.
func fixtureSets(t *testing.T) map[string]map[string][]byte {
	t.Helper()
	javatest.RequireJava(t)
	return map[string]map[string][]byte{
		"classfile":  javatest.ClassFiles(t, javatest.ClassfileFixtures(t)),
		"preview":    javatest.ClassFiles(t, javatest.ClassfilePreviewFixtures(t)),
		"release8":   javatest.ClassFiles(t, javatest.ClassfileRelease8Fixtures(t)),
		"instrument": javatest.ClassFiles(t, javatest.InstrumentFixtures(t)),
	}
}

func sortedNames(m map[string][]byte) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// TestFixturesRoundTrip: every fixture class (records, sealed types,
// nestmates, enums, lambdas, string and pattern switches, try/finally,
// synchronized, inner and anonymous classes, wide locals, goto_w, big
// switches, type annotations in code, preview and Java 8 classes) encodes
// back to its exact bytes, and so does every Code attribute.
func TestFixturesRoundTrip(t *testing.T) {
	for set, classes := range fixtureSets(t) {
		t.Run(set, func(t *testing.T) {
			require.NotEmpty(t, classes)
			for _, name := range sortedNames(classes) {
				data := classes[name]
				c, err := cf.Parse(data)
				require.NoError(t, err, name)
				out, err := c.Encode()
				require.NoError(t, err, name)
				require.True(t, bytes.Equal(data, out), "%s: class bytes differ", name)
				for i := range c.Methods {
					m := &c.Methods[i]
					a, ok := c.FindAttribute(m.Attributes, "Code")
					if !ok {
						continue
					}
					mn, md, _ := c.MemberName(m)
					code, err := cf.DecodeCode(c.Pool, a.Data)
					require.NoError(t, err, "%s %s%s", name, mn, md)
					enc, err := code.Encode()
					require.NoError(t, err, "%s %s%s", name, mn, md)
					require.True(t, bytes.Equal(a.Data, enc), "%s %s%s: Code differs", name, mn, md)
				}
			}
		})
	}
}

// TestFixtureFeaturesArePresent guards the fixtures themselves: the round
// trip above only means something if the constructs are really there.
func TestFixtureFeaturesArePresent(t *testing.T) {
	sets := fixtureSets(t)
	seen := map[string]bool{}
	for _, classes := range sets {
		for _, name := range sortedNames(classes) {
			c, err := cf.Parse(classes[name])
			require.NoError(t, err)
			if c.Minor == 0xFFFF {
				seen["preview"] = true
			}
			if c.Major == 52 {
				seen["java8"] = true
			}
			for i := range c.Methods {
				a, ok := c.FindAttribute(c.Methods[i].Attributes, "Code")
				if !ok {
					continue
				}
				code, err := cf.DecodeCode(c.Pool, a.Data)
				require.NoError(t, err)
				for _, in := range code.Insns {
					switch {
					case in.Wide:
						seen["wide"] = true
					case in.Op == cf.TABLESWITCH:
						seen["tableswitch"] = true
					case in.Op == cf.LOOKUPSWITCH:
						seen["lookupswitch"] = true
					case in.Op == cf.GOTO_W:
						seen["goto_w"] = true
					case in.Op == cf.INVOKEDYNAMIC:
						seen["invokedynamic"] = true
					case in.Op == cf.MULTIANEWARRAY:
						seen["multianewarray"] = true
					}
				}
				for _, at := range code.Attributes {
					switch at.Kind {
					case cf.AttrVisibleTypeAnnotations, cf.AttrInvisibleTypeAnnotations:
						seen["type annotations in code"] = true
					case cf.AttrLocalVariableTypeTable:
						seen["local variable type table"] = true
					case cf.AttrStackMapTable:
						for _, f := range at.Frames {
							for _, v := range append(append([]cf.VType(nil), f.Locals...), f.Stack...) {
								if v.Tag == cf.VUninitialized {
									seen["uninitialized(offset)"] = true
								}
							}
						}
					}
				}
			}
		}
	}
	for _, want := range []string{"preview", "java8", "wide", "tableswitch", "lookupswitch", "goto_w",
		"invokedynamic", "multianewarray", "type annotations in code", "local variable type table", "uninitialized(offset)"} {
		assert.True(t, seen[want], "no fixture has %s", want)
	}
}

// smallClass returns one small fixture class.
func smallClass(t *testing.T) []byte {
	t.Helper()
	for _, classes := range fixtureSets(t) {
		for _, n := range sortedNames(classes) {
			if path.Base(n) == "Arith.class" {
				return classes[n]
			}
		}
	}
	t.Fatal("no Arith.class fixture")
	return nil
}

func TestMajorVersions(t *testing.T) {
	data := smallClass(t)
	for major := 44; major <= 70; major++ {
		for _, minor := range []uint16{0, 3, 0xFFFF} {
			b := append([]byte(nil), data...)
			binary.BigEndian.PutUint16(b[4:], minor)
			binary.BigEndian.PutUint16(b[6:], uint16(major))
			c, err := cf.Parse(b)
			if major < cf.MinMajor || major > cf.MaxMajor {
				require.Error(t, err, "major %d", major)
				continue
			}
			require.NoError(t, err, "major %d", major)
			out, err := c.Encode()
			require.NoError(t, err)
			assert.True(t, bytes.Equal(b, out), "major %d minor %d", major, minor)
		}
	}
}

func TestMalformedClasses(t *testing.T) {
	data := smallClass(t)
	c, err := cf.Parse(data)
	require.NoError(t, err)
	poolEnd := 10 + poolSize(t, data)
	tests := []struct {
		name  string
		patch func([]byte) []byte
		want  string
	}{
		{"bad magic", func(b []byte) []byte { b[0] = 0; return b }, "bad magic"},
		{"truncated header", func(b []byte) []byte { return b[:7] }, "truncated"},
		{"truncated pool", func(b []byte) []byte { return b[:poolEnd-3] }, "truncated"},
		{"this_class out of range", func(b []byte) []byte {
			binary.BigEndian.PutUint16(b[poolEnd+2:], 0xFFFF)
			return b
		}, "this_class"},
		{"trailing bytes", func(b []byte) []byte { return append(b, 0) }, "trailing"},
		{"attribute longer than the class", func(b []byte) []byte {
			// the last class attribute's length is 4 bytes before its body
			n := len(b) - len(c.Attributes[len(c.Attributes)-1].Data) - 4
			binary.BigEndian.PutUint32(b[n:], 1<<20)
			return b
		}, "attribute length"},
		{"unknown pool tag", func(b []byte) []byte { b[10] = 2; return b }, "unknown tag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := cf.Parse(tt.patch(append([]byte(nil), data...)))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			var fe *cf.FormatError
			assert.True(t, errors.As(err, &fe), "want a *FormatError naming the offset, got %T", err)
		})
	}
	// Every prefix fails cleanly, never panics.
	for n := 0; n < len(data); n++ {
		_, err := cf.Parse(data[:n])
		require.Error(t, err, "prefix %d", n)
	}
}

// poolSize returns the byte length of the constant pool entries: one tag
// byte plus the body of every usable slot.
func poolSize(t *testing.T, data []byte) int {
	t.Helper()
	c, err := cf.Parse(data)
	require.NoError(t, err)
	n := 0
	for i := 1; i < c.Pool.Count(); i++ {
		if c.Pool.Tag(uint16(i)) == 0 {
			continue // second slot of a long or double
		}
		_, body, err := c.Pool.Entry(uint16(i))
		require.NoError(t, err)
		n += 1 + len(body)
	}
	require.Equal(t, c.Access, binary.BigEndian.Uint16(data[10+n:]), "access_flags must follow the pool")
	return n
}

// code builds a Code attribute body around raw instructions.
func code(maxStack, maxLocals uint16, insns []byte, tail ...byte) []byte {
	var b []byte
	b = binary.BigEndian.AppendUint16(b, maxStack)
	b = binary.BigEndian.AppendUint16(b, maxLocals)
	b = binary.BigEndian.AppendUint32(b, uint32(len(insns)))
	b = append(b, insns...)
	if tail == nil {
		tail = []byte{0, 0, 0, 0} // no handlers, no attributes
	}
	return append(b, tail...)
}

func TestMalformedCode(t *testing.T) {
	c, err := cf.Parse(smallClass(t))
	require.NoError(t, err)
	tests := []struct {
		name string
		body []byte
		want string
	}{
		{"unknown opcode", code(1, 1, []byte{0xcb, 0xb1}), "unknown opcode 0xCB"},
		{"branch into an instruction", code(1, 1, []byte{0x11, 0, 1, 0xa7, 0xff, 0xfe, 0xb1}), "not the start of an instruction"},
		{"branch outside the code", code(1, 1, []byte{0xa7, 0x10, 0x00, 0xb1}), "not the start of an instruction"},
		{"truncated operand", code(1, 1, []byte{0xb1, 0x11, 0}), "truncated"},
		{"code length past the attribute", code(1, 1, []byte{0xb1})[:8], "truncated"},
		{"attribute length mismatch", code(1, 1, []byte{0xb1}, 0, 0, 0, 0, 9), "trailing"},
		{"handler range inverted", code(1, 1, []byte{0, 0xb1}, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0), "start"},
		{"wide on a non-local opcode", code(1, 1, []byte{0xc4, 0x00, 0xb1}), "wide"},
		{"zero code length", code(1, 1, nil), "code_length"},
		{"nonzero switch padding", code(1, 1, []byte{0xaa, 1, 0, 0, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16, 0xb1}), "padding"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := cf.DecodeCode(c.Pool, tt.body)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestEncodeLimits(t *testing.T) {
	t.Run("branch overflow", func(t *testing.T) {
		c := &cf.Code{MaxStack: 1, MaxLocals: 1}
		target := c.NewLabel()
		c.Insns = append(c.Insns, cf.Insn{Op: cf.GOTO, Target: target})
		for i := 0; i < 40000; i++ {
			c.Insns = append(c.Insns, cf.Insn{Op: cf.NOP})
		}
		c.Insns = append(c.Insns, cf.Insn{Op: cf.RETURN, Mark: target})
		_, err := c.Encode()
		require.ErrorIs(t, err, cf.ErrBranchOverflow)
		c.Insns[0].Op = cf.GOTO_W // a 32-bit branch reaches
		_, err = c.Encode()
		require.NoError(t, err)
	})
	t.Run("code too large", func(t *testing.T) {
		c := &cf.Code{MaxStack: 1, MaxLocals: 1}
		for i := 0; i < 65535; i++ {
			c.Insns = append(c.Insns, cf.Insn{Op: cf.NOP})
		}
		c.Insns = append(c.Insns, cf.Insn{Op: cf.RETURN})
		_, err := c.Encode()
		require.ErrorIs(t, err, cf.ErrCodeTooLarge)
	})
}

// TestSwitchRelayout moves a tableswitch and a lookupswitch by one to four
// bytes: padding is recomputed, and every target still lands on the same
// instruction.
func TestSwitchRelayout(t *testing.T) {
	c, err := cf.Parse(smallClass(t))
	require.NoError(t, err)
	// iload_0; tableswitch {0: L1, 1: L2, default: L3}; L1: return; L2: return; L3: iload_0; lookupswitch {-5: L1, default: L2}
	// 0: iload_0
	// 1: tableswitch (pad 2-3) default L3, 0 -> L1, 1 -> L2; ends at 24
	// 24: L1 return; 25: L2 return; 26: L3 iload_0
	// 27: lookupswitch (no pad) default L2, -5 -> L1
	var raw []byte
	be := func(v int32) { raw = binary.BigEndian.AppendUint32(raw, uint32(v)) }
	raw = append(raw, 0x1a, 0xaa, 0, 0)
	be(26 - 1)
	be(0)
	be(1)
	be(24 - 1)
	be(25 - 1)
	raw = append(raw, 0xb1, 0xb1, 0x1a, 0xab)
	be(25 - 27)
	be(1)
	be(-5)
	be(24 - 27)
	body := code(1, 1, raw)
	dec, err := cf.DecodeCode(c.Pool, body)
	require.NoError(t, err)
	enc, err := dec.Encode()
	require.NoError(t, err)
	require.Equal(t, body, enc)
	for shift := 1; shift <= 4; shift++ {
		d, err := cf.DecodeCode(c.Pool, body)
		require.NoError(t, err)
		pre := make([]cf.Insn, shift)
		for i := range pre {
			pre[i] = cf.Insn{Op: cf.NOP}
		}
		d.Insns = append(pre, d.Insns...)
		out, err := d.Encode()
		require.NoError(t, err, "shift %d", shift)
		back, err := cf.DecodeCode(c.Pool, out)
		require.NoError(t, err, "shift %d", shift)
		ops := func(c *cf.Code) []string {
			var s []string
			for _, in := range c.Insns {
				s = append(s, in.Op.String())
			}
			return s
		}
		assert.Equal(t, ops(d), ops(back), "shift %d", shift)
		// The switch targets resolve to the same instructions as before.
		target := func(c *cf.Code, l cf.Label) int {
			for i, in := range c.Insns {
				if in.Mark == l {
					return i
				}
			}
			return -1
		}
		for k := range back.Switches {
			assert.Equal(t, target(d, d.Switches[k].Default), target(back, back.Switches[k].Default), "shift %d switch %d", shift, k)
			for j := range back.Switches[k].Targets {
				assert.Equal(t, target(d, d.Switches[k].Targets[j]), target(back, back.Switches[k].Targets[j]))
			}
		}
	}
}

func TestConstantPoolEditing(t *testing.T) {
	c, err := cf.Parse(smallClass(t))
	require.NoError(t, err)
	p := c.Pool
	count := p.Count()
	name, err := c.Name()
	require.NoError(t, err)
	// Existing entries are found, not added.
	i, err := p.AddClass(name)
	require.NoError(t, err)
	assert.Equal(t, c.ThisClass, i)
	assert.Equal(t, count, p.Count())
	assert.False(t, p.Grown())
	// New entries are appended; nothing moves.
	before, _ := c.Encode()
	m, err := p.AddMethodref("x/Y", "z", "(I)V")
	require.NoError(t, err)
	assert.GreaterOrEqual(t, int(m), count)
	ref, err := p.Ref(m)
	require.NoError(t, err)
	assert.Equal(t, cf.MemberRef{Tag: cf.TagMethodref, Class: "x/Y", Name: "z", Descriptor: "(I)V"}, ref)
	n, err := p.AddInteger(1234567)
	require.NoError(t, err)
	v, err := p.Integer(n)
	require.NoError(t, err)
	assert.Equal(t, int32(1234567), v)
	s, err := p.AddString("héllo\x00")
	require.NoError(t, err)
	again, err := p.AddString("héllo\x00")
	require.NoError(t, err)
	assert.Equal(t, s, again)
	after, err := c.Encode()
	require.NoError(t, err)
	// The old pool is a prefix of the new one (after the count).
	assert.Equal(t, before[10:10+poolSize(t, before)], after[10:10+poolSize(t, before)])
	_, err = cf.Parse(after)
	require.NoError(t, err)

	// A full pool is a clear error. Integers fill it (they are looked up
	// by a map; a Utf8 lookup scans the pool) up to one free slot, which
	// a Utf8 takes.
	for k := int32(0); p.Count() < 65534; k++ {
		_, err = p.AddInteger(10_000_000 + k)
		require.NoError(t, err)
	}
	last, err := p.AddUtf8("the last one")
	require.NoError(t, err)
	assert.Equal(t, uint16(65534), last)
	assert.Equal(t, 65535, p.Count())
	_, err = p.AddUtf8("one too many")
	require.ErrorIs(t, err, cf.ErrPoolFull)
	_, err = p.AddInteger(-1)
	require.ErrorIs(t, err, cf.ErrPoolFull)
	// What is there is still found when the pool is full.
	again, err = p.AddUtf8("the last one")
	require.NoError(t, err)
	assert.Equal(t, last, again)
}

func TestLongDoubleTakeTwoSlots(t *testing.T) {
	found := false
	for _, classes := range fixtureSets(t) {
		for _, n := range sortedNames(classes) {
			c, err := cf.Parse(classes[n])
			require.NoError(t, err)
			for i := 1; i < c.Pool.Count(); i++ {
				if tag := c.Pool.Tag(uint16(i)); tag == cf.TagLong || tag == cf.TagDouble {
					found = true
					assert.Zero(t, c.Pool.Tag(uint16(i+1)), "%s: slot after entry %d must be unusable", n, i)
				}
			}
		}
	}
	assert.True(t, found, "no long or double constant in the fixtures")
}
