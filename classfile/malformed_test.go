package classfile_test

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	cf "github.com/tracebeat/tracebeat/classfile"
)

// classBytes builds a class file around pool entries (raw, tag first):
// this_class and super_class as given, the interfaces, one method whose
// name and descriptor indices are given (none when method is nil), and
// no fields or attributes.
func classBytes(entries [][]byte, count int, this, super uint16, ifaces []uint16, method []uint16) []byte {
	b := []byte{0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52}
	b = binary.BigEndian.AppendUint16(b, uint16(count))
	for _, e := range entries {
		b = append(b, e...)
	}
	b = append(b, 0, 0x21)
	b = binary.BigEndian.AppendUint16(b, this)
	b = binary.BigEndian.AppendUint16(b, super)
	b = binary.BigEndian.AppendUint16(b, uint16(len(ifaces)))
	for _, i := range ifaces {
		b = binary.BigEndian.AppendUint16(b, i)
	}
	b = append(b, 0, 0) // fields
	if method == nil {
		b = append(b, 0, 0)
	} else {
		b = append(b, 0, 1, 0, 1)
		b = binary.BigEndian.AppendUint16(b, method[0])
		b = binary.BigEndian.AppendUint16(b, method[1])
		b = append(b, 0, 0)
	}
	return append(b, 0, 0) // attributes
}

func utf8Entry(s string) []byte {
	return append(binary.BigEndian.AppendUint16([]byte{cf.TagUtf8}, uint16(len(s))), s...)
}

func entry(tag byte, idx ...uint16) []byte {
	b := []byte{tag}
	for _, i := range idx {
		b = binary.BigEndian.AppendUint16(b, i)
	}
	return b
}

// TestMalformedPool: every reference between pool entries is checked for
// the kind it must name, and this_class, super_class, interfaces and
// member names against the pool.
func TestMalformedPool(t *testing.T) {
	// A valid base: 1 "A", 2 Class A, 3 "m", 4 "()V", 5 NameAndType m ()V,
	// 6 Methodref A.m, 7 Long (8 unusable).
	base := [][]byte{
		utf8Entry("A"), entry(cf.TagClass, 1), utf8Entry("m"), utf8Entry("()V"),
		entry(cf.TagNameAndType, 3, 4), entry(cf.TagMethodref, 2, 5), {cf.TagLong, 0, 0, 0, 0, 0, 0, 0, 1},
	}
	with := func(extra ...[]byte) ([][]byte, int) {
		e := append(append([][]byte{}, base...), extra...)
		return e, 9 + len(extra)
	}
	ok := func(extra ...[]byte) []byte {
		e, n := with(extra...)
		return classBytes(e, n, 2, 0, nil, nil)
	}
	c, err := cf.Parse(ok())
	require.NoError(t, err)
	assert.Equal(t, 9, c.Pool.Count())
	for kind := byte(1); kind <= 9; kind++ {
		_, err := cf.Parse(ok([]byte{cf.TagMethodHandle, kind, 0, 6}))
		assert.NoError(t, err, "method handle kind %d", kind)
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"count 0", classBytes(nil, 0, 0, 0, nil, nil), "constant_pool_count is 0"},
		{"a long in the last slot", classBytes(base, 8, 2, 0, nil, nil), "constant pool entry 7: 8-byte constant in the last slot"},
		{"a class naming a class", ok(entry(cf.TagClass, 2)), "constant pool entry 9: name index 2 is invalid (tag 7)"},
		{"a string of no entry", ok(entry(cf.TagString, 0)), "constant pool entry 9: name index 0 is invalid (tag 0)"},
		{"a method type past the pool", ok(entry(cf.TagMethodType, 10)), "name index 10 is invalid (tag 0)"},
		{"a module naming a long's second slot", ok(entry(cf.TagModule, 8)), "name index 8 is invalid (tag 0)"},
		{"a package naming a long", ok(entry(cf.TagPackage, 7)), "name index 7 is invalid (tag 5)"},
		{"a field ref to a Utf8 class", ok(entry(cf.TagFieldref, 1, 5)), "class index 1 is invalid (tag 1)"},
		{"a method ref to a Utf8 name-and-type", ok(entry(cf.TagMethodref, 2, 3)), "name-and-type index 3 is invalid (tag 1)"},
		{"an interface method ref to a class name-and-type", ok(entry(cf.TagInterfaceMethodref, 2, 2)), "name-and-type index 2 is invalid"},
		{"a name-and-type of a class name", ok(entry(cf.TagNameAndType, 2, 4)), "name index 2 is invalid"},
		{"a name-and-type of a class descriptor", ok(entry(cf.TagNameAndType, 3, 2)), "descriptor index 2 is invalid"},
		{"a method handle of kind 0", ok([]byte{cf.TagMethodHandle, 0, 0, 6}), "constant pool entry 9: method handle kind 0"},
		{"a method handle of kind 10", ok([]byte{cf.TagMethodHandle, 10, 0, 6}), "method handle kind 10"},
		{"a method handle to a class", ok([]byte{cf.TagMethodHandle, 1, 0, 2}), "reference index 2 is invalid"},
		{"an invokedynamic of a method ref", ok(entry(cf.TagInvokeDynamic, 0, 6)), "name-and-type index 6 is invalid"},
		{"a dynamic of no entry", ok(entry(cf.TagDynamic, 0, 0)), "name-and-type index 0 is invalid"},
		{"this_class a Utf8", func() []byte { e, n := with(); return classBytes(e, n, 1, 0, nil, nil) }(), "this_class index 1 is not a Class constant"},
		{"super_class a Utf8", func() []byte { e, n := with(); return classBytes(e, n, 2, 1, nil, nil) }(), "super_class index 1 is not a Class constant"},
		{"an interface a Utf8", func() []byte { e, n := with(); return classBytes(e, n, 2, 0, []uint16{2, 1}, nil) }(), "interface 1: index 1 is not a Class constant"},
		{"a method named by a class", func() []byte { e, n := with(); return classBytes(e, n, 2, 0, nil, []uint16{2, 4}) }(), "method 0: name or descriptor index is not a Utf8 constant"},
		{"a method described by a class", func() []byte { e, n := with(); return classBytes(e, n, 2, 0, nil, []uint16{3, 2}) }(), "method 0: name or descriptor index is not a Utf8 constant"},
	}
	for _, tt := range tests {
		_, err := cf.Parse(tt.data)
		require.Error(t, err, tt.name)
		assert.Contains(t, err.Error(), tt.want, tt.name)
	}
	// The accessors refuse an entry of another kind, naming the index.
	p := c.Pool
	_, err = p.Utf8(2)
	assert.Error(t, err)
	_, err = p.ClassName(1)
	assert.Error(t, err)
	_, err = p.Integer(1)
	assert.Error(t, err)
	_, err = p.StringValue(2)
	assert.Error(t, err)
	_, _, err = p.NameAndType(6)
	assert.Error(t, err)
	_, err = p.Ref(5)
	assert.Error(t, err)
	_, _, err = p.Entry(8)
	assert.ErrorContains(t, err, "constant pool index 8 is not a valid entry (count 9)")
	_, _, err = p.Entry(9)
	assert.ErrorContains(t, err, "constant pool index 9 is not a valid entry (count 9)")
	r, err := p.Ref(6)
	require.NoError(t, err)
	assert.Equal(t, cf.MemberRef{Tag: cf.TagMethodref, Class: "A", Name: "m", Descriptor: "()V"}, r)
	name, desc, err := p.NameAndType(5)
	require.NoError(t, err)
	assert.Equal(t, []string{"m", "()V"}, []string{name, desc})
	super, err := c.SuperName()
	require.NoError(t, err)
	assert.Empty(t, super)
	e, n := with()
	c2, err := cf.Parse(classBytes(e, n, 2, 2, nil, []uint16{3, 4}))
	require.NoError(t, err)
	super, err = c2.SuperName()
	require.NoError(t, err)
	assert.Equal(t, "A", super)
	mn, md, err := c2.MemberName(&c2.Methods[0])
	require.NoError(t, err)
	assert.Equal(t, []string{"m", "()V"}, []string{mn, md})
}

// TestMalformedCodeDetails: each check of the Code decoder, met by a body
// that breaks it and nothing else.
func TestMalformedCodeDetails(t *testing.T) {
	data := smallClass(t)
	c, err := cf.Parse(data)
	require.NoError(t, err)
	pool := c.Pool
	name := func(s string) []byte {
		i, err := pool.AddUtf8(s)
		require.NoError(t, err)
		return binary.BigEndian.AppendUint16(nil, i)
	}
	u2 := func(v int) []byte { return binary.BigEndian.AppendUint16(nil, uint16(v)) }
	u4 := func(v int) []byte { return binary.BigEndian.AppendUint32(nil, uint32(v)) }
	cat := func(parts ...[]byte) []byte {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	utf8Index := u2(int(c.Methods[0].Name))
	classIndex := u2(int(c.ThisClass))
	// attr wraps an attribute of the Code attribute.
	attr := func(n string, body []byte) []byte { return cat(name(n), u4(len(body)), body) }
	// withAttrs: a body of three instructions (nop; nop; return) with no
	// handlers and the given attributes.
	withAttrs := func(attrs ...[]byte) []byte {
		return code(1, 1, []byte{0, 0, 0xb1}, cat(u2(0), u2(len(attrs)), cat(attrs...))...)
	}
	handler := func(start, end, target, catchType []byte) []byte {
		return code(1, 1, []byte{0, 0, 0xb1}, cat(u2(1), start, end, target, catchType, u2(0))...)
	}
	tests := []struct {
		name string
		body []byte
		want string
	}{
		{"invokeinterface fourth byte", code(1, 1, []byte{0xb9, 0, 1, 1, 1, 0xb1}), "invokeinterface: fourth operand byte is 1, not 0"},
		{"invokedynamic third byte", code(1, 1, []byte{0xba, 0, 1, 1, 0, 0xb1}), "invokedynamic: operand bytes 3-4 are not 0"},
		{"invokedynamic fourth byte", code(1, 1, []byte{0xba, 0, 1, 0, 1, 0xb1}), "invokedynamic: operand bytes 3-4 are not 0"},
		{"invokeinterface cut", code(1, 1, []byte{0xb9, 0, 1, 1}), "truncated"},
		{"wide iinc cut", code(1, 1, []byte{0xc4, 0x84, 0, 1, 0}), "truncated"},
		{"wide at the end", code(1, 1, []byte{0xb1, 0xc4}), "truncated"},
		{"tableswitch low > high", code(1, 1, cat([]byte{0xaa, 0, 0, 0}, u4(16), u4(2), u4(1), []byte{0xb1})), "tableswitch low 2 > high 1"},
		{"tableswitch targets cut", code(1, 1, cat([]byte{0xaa, 0, 0, 0}, u4(20), u4(0), u4(1), u4(20))), "tableswitch with 2 targets truncated"},
		{"tableswitch header cut", code(1, 1, cat([]byte{0xaa, 0, 0, 0}, u4(20), u4(0))), "tableswitch truncated"},
		{"tableswitch of 4 targets with room for 3", code(1, 1, cat([]byte{0xaa, 0, 0, 0}, u4(20), u4(0), u4(3), u4(20), u4(20), u4(20))), "tableswitch with 4 targets truncated"},
		{"lookupswitch of 8 pairs with room for 7", code(1, 1, cat([]byte{0xab, 0, 0, 0}, u4(20), u4(8), make([]byte, 56))), "lookupswitch with 8 pairs truncated"},
		{"lookupswitch pairs negative", code(1, 1, cat([]byte{0xab, 0, 0, 0}, u4(12), u4(-1), []byte{0xb1})), "lookupswitch with -1 pairs truncated"},
		{"lookupswitch pairs cut", code(1, 1, cat([]byte{0xab, 0, 0, 0}, u4(20), u4(1), u4(5))), "lookupswitch with 1 pairs truncated"},
		{"lookupswitch keys equal", code(1, 1, cat([]byte{0xab, 0, 0, 0}, u4(28), u4(2), u4(5), u4(28), u4(5), u4(28), []byte{0xb1})), "lookupswitch keys not sorted at pair 1"},
		{"lookupswitch keys descending", code(1, 1, cat([]byte{0xab, 0, 0, 0}, u4(28), u4(2), u4(6), u4(28), u4(5), u4(28), []byte{0xb1})), "lookupswitch keys not sorted at pair 1"},
		{"a switch target inside an instruction", code(1, 1, cat([]byte{0xab, 0, 0, 0}, u4(20), u4(1), u4(5), u4(3), []byte{0xb1})), "switch target is not the start of an instruction"},
		{"a switch default inside an instruction", code(1, 1, cat([]byte{0xab, 0, 0, 0}, u4(3), u4(1), u4(5), u4(20), []byte{0xb1})), "not the start of an instruction"},
		{"a switch target past the code", code(1, 1, cat([]byte{0xab, 0, 0, 0}, u4(20), u4(1), u4(5), u4(21), []byte{0xb1})), "not the start of an instruction"},
		{"a backward branch before the code", code(1, 1, []byte{0xa7, 0xff, 0xff, 0xb1}), "not the start of an instruction"},
		{"a catch type that is no class", handler(u2(0), u2(2), u2(2), utf8Index), "catch type"},
		{"a handler start inside an instruction", code(1, 1, []byte{0x11, 0, 0, 0xb1}, cat(u2(1), u2(1), u2(3), u2(3), u2(0), u2(0))...), "not the start of an instruction"},
		{"a handler ending past the end", handler(u2(0), u2(4), u2(2), u2(0)), "not the start of an instruction"},
		{"a handler target at the end", handler(u2(0), u2(3), u2(3), u2(0)), "offset is past the last instruction"},
		{"an attribute name that is no Utf8", withAttrs(cat(classIndex, u4(0))), "attribute name"},
		{"trailing bytes after the attributes", append(withAttrs(), 0), "trailing"},
		{"a line table cut", withAttrs(attr("LineNumberTable", []byte{0})), "LineNumberTable offset 0: truncated: need 2 bytes, have 1"},
		{"a line table of the wrong size", withAttrs(attr("LineNumberTable", cat(u2(2), u2(0), u2(1)))), "LineNumberTable offset 0: 2 entries need 8 bytes, have 4"},
		{"a line table with trailing bytes", withAttrs(attr("LineNumberTable", cat(u2(1), u2(0), u2(1), u2(7)))), "1 entries need 4 bytes, have 6"},
		{"a line inside nothing", withAttrs(attr("LineNumberTable", cat(u2(1), u2(3), u2(1)))), "attribute LineNumberTable"},
		{"a local starting past the code", withAttrs(attr("LocalVariableTable", cat(u2(1), u2(4), u2(0), u2(1), u2(1), u2(0)))), "attribute LocalVariableTable"},
		{"a local ending past the code", withAttrs(attr("LocalVariableTable", cat(u2(1), u2(1), u2(3), u2(1), u2(1), u2(0)))), "attribute LocalVariableTable"},
		{"a local table of the wrong size", withAttrs(attr("LocalVariableTable", cat(u2(1), u2(0), u2(1), u2(1), u2(1)))), "1 entries need 10 bytes, have 8"},
		{"a local starting inside an instruction", code(1, 1, []byte{0x11, 0, 0, 0xb1}, cat(u2(0), u2(1), attr("LocalVariableTable", cat(u2(1), u2(1), u2(2), utf8Index, utf8Index, u2(0))))...),
			"code offset 1: offset is not the start of an instruction"},
		{"an attribute longer than the rest", cat(withAttrs(cat(name("Whatever"), u4(100), []byte{1, 2}))), "attribute Whatever length 100 exceeds the 2 bytes left"},
		{"trailing bytes after an attribute", append(withAttrs(attr("Whatever", []byte{1})), 0), "1 trailing bytes after the attributes"},
		{"a reserved frame type", withAttrs(attr("StackMapTable", cat(u2(1), []byte{128}))), "reserved frame type 128"},
		{"frame type 246", withAttrs(attr("StackMapTable", cat(u2(1), []byte{246}))), "reserved frame type 246"},
		{"an unknown verification type", withAttrs(attr("StackMapTable", cat(u2(1), []byte{64, 9}))), "unknown verification type tag 9"},
		{"an object of no class", withAttrs(attr("StackMapTable", cat(u2(1), []byte{64, 7}, utf8Index))), "is not a Class constant"},
		{"uninitialized inside nothing", withAttrs(attr("StackMapTable", cat(u2(1), []byte{64, 8}, u2(3)))), "uninitialized(3)"},
		{"a frame past the code", withAttrs(attr("StackMapTable", cat(u2(1), []byte{3}))), "frame 0"},
		{"a frame table with trailing bytes", withAttrs(attr("StackMapTable", cat(u2(1), []byte{0, 0}))), "1 trailing bytes"},
		{"an append frame cut", withAttrs(attr("StackMapTable", cat(u2(1), []byte{253}, u2(0), []byte{1}))), "StackMapTable offset 6: truncated: need 1 bytes, have 0"},
		{"a full frame cut", withAttrs(attr("StackMapTable", cat(u2(1), []byte{255}, u2(0), u2(1), []byte{1}, u2(1)))), "StackMapTable offset 10: truncated: need 1 bytes, have 0"},
		{"an extended frame cut", withAttrs(attr("StackMapTable", cat(u2(1), []byte{247}, u2(0)))), "StackMapTable"},
		{"a same-extended frame cut in its delta", withAttrs(attr("StackMapTable", cat(u2(1), []byte{251, 0}))), "StackMapTable offset 3: truncated: need 2 bytes, have 1"},
		{"a frame table cut in its count", withAttrs(attr("StackMapTable", []byte{0})), "StackMapTable offset 0: truncated: need 2 bytes, have 1"},
		{"an append frame of an unknown type", withAttrs(attr("StackMapTable", cat(u2(1), []byte{252}, u2(0), []byte{9}))), "unknown verification type tag 9"},
		{"a full frame's local of an unknown type", withAttrs(attr("StackMapTable", cat(u2(1), []byte{255}, u2(0), u2(1), []byte{9}, u2(0)))), "unknown verification type tag 9"},
		{"a full frame's stack of an unknown type", withAttrs(attr("StackMapTable", cat(u2(1), []byte{255}, u2(0), u2(0), u2(1), []byte{9}))), "unknown verification type tag 9"},
	}
	for _, tt := range tests {
		_, err := cf.DecodeCode(pool, tt.body)
		require.Error(t, err, tt.name)
		assert.Contains(t, err.Error(), tt.want, tt.name)
	}
	// The edges that are allowed: a handler ending at the code's end, a
	// local running to it, frames of each extended form, sorted keys.
	allowed := []struct {
		name string
		body []byte
	}{
		{"a handler to the end", handler(u2(0), u2(3), u2(2), u2(0))},
		{"a handler of a class", handler(u2(0), u2(3), u2(2), classIndex)},
		{"a local to the end", withAttrs(attr("LocalVariableTable", cat(u2(1), u2(1), u2(2), utf8Index, utf8Index, u2(0))))},
		{"lines", withAttrs(attr("LineNumberTable", cat(u2(2), u2(0), u2(1), u2(2), u2(2))))},
		{"frames", withAttrs(attr("StackMapTable", cat(u2(3), []byte{0}, []byte{247}, u2(0), []byte{1}, []byte{252, 0, 0, 7}, classIndex)))},
		{"sorted keys", code(1, 1, cat([]byte{0xab, 0, 0, 0}, u4(28), u4(2), u4(-1), u4(28), u4(0), u4(28), []byte{0xb1}))},
	}
	for _, tt := range allowed {
		got, err := cf.DecodeCode(pool, tt.body)
		require.NoError(t, err, tt.name)
		again, err := got.Encode()
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.body, again, tt.name)
	}
}

// TestInterfaceCount: a count of interfaces that cannot fit in what is
// left is refused before reading them, and says where; one that fits
// exactly is read, and the class fails after it.
func TestInterfaceCount(t *testing.T) {
	e := [][]byte{utf8Entry("A"), entry(cf.TagClass, 1)}
	full := classBytes(e, 3, 2, 0, []uint16{2, 2, 2}, nil)
	list := len(full) - 6 - 6 // the interfaces, before the three counts that end the class
	_, err := cf.Parse(full[:list+4])
	assert.ErrorContains(t, err, "3 interfaces cannot fit in the 4 bytes left")
	two := classBytes(e, 3, 2, 0, []uint16{2, 2}, nil)
	_, err = cf.Parse(two[:len(two)-6])
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "cannot fit")
	// The error of a bad super_class names its offset: after access and this_class.
	bad := classBytes(e, 3, 2, 1, nil, nil)
	_, err = cf.Parse(bad)
	var fe *cf.FormatError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, 8+2+len(e[0])+len(e[1])+2+2, fe.Offset)
}

// TestMemberAndAttributeCounts: counts of methods and of attributes that
// cannot fit in what is left are refused before reading them (a member
// takes at least 8 bytes, an attribute 6).
func TestMemberAndAttributeCounts(t *testing.T) {
	e := [][]byte{utf8Entry("A"), entry(cf.TagClass, 1)}
	base := classBytes(e, 3, 2, 0, nil, nil) // ... fields 0, methods 0, attributes 0
	head := base[:len(base)-4]               // up to the methods count
	methods := append(append([]byte{}, head...), 0, 3)
	methods = append(methods, make([]byte, 16)...)
	_, err := cf.Parse(methods)
	assert.ErrorContains(t, err, "3 methods cannot fit in the 16 bytes left")
	attrs := append(append([]byte{}, base[:len(base)-2]...), 0, 3)
	attrs = append(attrs, make([]byte, 12)...)
	_, err = cf.Parse(attrs)
	assert.ErrorContains(t, err, "3 attributes cannot fit in the 12 bytes left")
}

// TestEncodeSizesAndCounts: Size is the encoded length of every fixture
// class; up to 65,535 interfaces, fields, methods and attributes are
// written, one more is refused; an index one past the pool is refused by
// every accessor.
func TestEncodeSizesAndCounts(t *testing.T) {
	for set, classes := range fixtureSets(t) {
		for _, name := range sortedNames(classes) {
			c, err := cf.Parse(classes[name])
			require.NoError(t, err)
			out, err := c.Encode()
			require.NoError(t, err)
			require.Equal(t, len(out), c.Size(), "%s %s", set, name)
		}
	}
	e := [][]byte{utf8Entry("A"), entry(cf.TagClass, 1)}
	c, err := cf.Parse(classBytes(e, 3, 2, 0, nil, nil))
	require.NoError(t, err)
	for _, field := range []string{"interfaces", "fields", "methods", "attributes"} {
		for _, n := range []int{0xFFFF, 0x10000} {
			d := *c
			switch field {
			case "interfaces":
				d.Interfaces = make([]uint16, n)
			case "fields":
				d.Fields = make([]cf.Member, n)
			case "methods":
				d.Methods = make([]cf.Member, n)
			case "attributes":
				d.Attributes = make([]cf.Attribute, n)
			}
			out, err := d.Encode()
			if n == 0xFFFF {
				require.NoError(t, err, "%d %s", n, field)
				assert.Equal(t, d.Size(), len(out))
			} else {
				assert.Error(t, err, "%d %s", n, field)
			}
		}
	}
	count := uint16(c.Pool.Count())
	_, err = c.Pool.Utf8(count)
	assert.ErrorContains(t, err, "not a valid entry")
	_, err = c.Pool.ClassName(count)
	assert.Error(t, err)
}

// TestPoolCutsSayWhere: a pool cut in a Utf8 entry's length, in its bytes
// or right after it names the read that failed and what it needed.
func TestPoolCutsSayWhere(t *testing.T) {
	data := classBytes([][]byte{utf8Entry("Abc"), entry(cf.TagClass, 1)}, 3, 2, 0, nil, nil)
	// The entry: tag at 10, length at 11-12, bytes at 13-15; the next entry at 16.
	for cut, want := range map[int]string{
		12: "class offset 11: truncated: need 2 bytes, have 1",
		13: "class offset 13: truncated: need 3 bytes, have 0",
		15: "class offset 13: truncated: need 3 bytes, have 2",
		16: "class offset 16: truncated: need 1 bytes, have 0",
	} {
		_, err := cf.Parse(data[:cut])
		assert.ErrorContains(t, err, want, "cut at %d", cut)
	}
}

// TestPoolErrorsSayWhere: the offsets a pool's errors name, and the
// pool's limit.
func TestPoolErrorsSayWhere(t *testing.T) {
	offset := func(data []byte) int {
		_, err := cf.Parse(data)
		var fe *cf.FormatError
		require.ErrorAs(t, err, &fe)
		return fe.Offset
	}
	assert.Equal(t, 8, offset(classBytes(nil, 0, 0, 0, nil, nil)), "the count")
	e := [][]byte{utf8Entry("A"), entry(cf.TagClass, 1)}
	at := 10 + len(e[0]) + len(e[1]) // where a third entry starts
	assert.Equal(t, at, offset(classBytes(append(e, entry(cf.TagClass, 2)), 4, 2, 0, nil, nil)), "a bad reference")
	assert.Equal(t, at, offset(classBytes(append(e, []byte{cf.TagMethodHandle, 0, 0, 1}), 4, 2, 0, nil, nil)), "a bad handle kind")
	// The first entry is checked too: a Class naming itself.
	assert.Equal(t, 10, offset(classBytes([][]byte{entry(cf.TagClass, 1), utf8Entry("A"), entry(cf.TagClass, 2)}, 4, 3, 0, nil, nil)), "a bad first entry")

	var p cf.ConstantPool
	_, err := p.AddUtf8("")
	require.NoError(t, err)
	for i := 1; i < 65535; i++ {
		_, err := p.AddInteger(int32(i))
		require.NoError(t, err, "entry %d", i)
	}
	_, err = p.AddInteger(-1)
	assert.ErrorIs(t, err, cf.ErrPoolFull)
	assert.ErrorContains(t, err, "would pass 65534 entries")
	// Integers and Strings already there are found, not added again.
	i5, err := p.AddInteger(5)
	require.NoError(t, err)
	assert.Equal(t, uint16(5), i5)
	var q cf.ConstantPool
	_, _ = q.AddUtf8("")
	a, err := q.AddString("s")
	require.NoError(t, err)
	n, err := q.AddInteger(7)
	require.NoError(t, err)
	again, err := q.AddString("s")
	require.NoError(t, err)
	assert.Equal(t, a, again)
	again, err = q.AddInteger(7)
	require.NoError(t, err)
	assert.Equal(t, n, again)
	assert.Equal(t, 4, q.Count(), "\"\", \"s\", String s, 7")
}

// TestDecodeEdges: the forms allowed at the very end of the code, the
// code length limit, and the numbers a truncation names.
func TestDecodeEdges(t *testing.T) {
	var pool cf.ConstantPool
	u4 := func(v int) []byte { return binary.BigEndian.AppendUint32(nil, uint32(v)) }
	for name, insns := range map[string][]byte{
		"wide iload last":           {0xc4, 0x15, 0, 1},
		"lookupswitch of no pairs":  append(append([]byte{0xab, 0, 0, 0}, u4(0)...), u4(0)...),
		"tableswitch of one target": append(append(append(append([]byte{0xaa, 0, 0, 0}, u4(0)...), u4(0)...), u4(0)...), u4(0)...),
		"invokeinterface last":      {0xb9, 0, 1, 1, 0},
		"65,535 bytes":              append(make([]byte, 65534), 0xb1),
	} {
		body := code(1, 2, insns)
		c, err := cf.DecodeCode(&pool, body)
		require.NoError(t, err, name)
		again, err := c.Encode()
		require.NoError(t, err, name)
		assert.Equal(t, body, again, name)
	}
	_, err := cf.DecodeCode(&pool, code(1, 1, append(make([]byte, 65535), 0xb1)))
	assert.ErrorContains(t, err, "Code offset 4: code_length 65536 out of range 1..65535", "the length's own offset")
	for insns, want := range map[string]string{
		"\xb9\x00\x01":             "invokeinterface truncated: needs 5 bytes, 3 left",
		"\x00\xc4\x84\x00":         "wide truncated: needs 6 bytes, 3 left",
		"\x11\x00":                 "sipush truncated: needs 3 bytes, 2 left",
		"\x00\x11\x00":             "sipush truncated: needs 3 bytes, 2 left",
		"\xc4\x15":                 "wide truncated: needs 4 bytes, 2 left",
		"\xb9\x00\x01\x02\x07\xb1": "invokeinterface: fourth operand byte is 7, not 0",
	} {
		_, err := cf.DecodeCode(&pool, code(1, 1, []byte(insns)))
		assert.ErrorContains(t, err, want, "% x", insns)
	}
	// A switch's default inside an instruction is named as a switch target.
	_, err = cf.DecodeCode(&pool, code(1, 1, append(append(append(append([]byte{0xab, 0, 0, 0}, u4(3)...), u4(1)...), u4(5)...), append(u4(20), 0xb1)...)))
	assert.ErrorContains(t, err, "switch target is not the start of an instruction")
	// Each padding byte of a switch must be zero: the last of three too.
	_, err = cf.DecodeCode(&pool, code(1, 1, append(append(append([]byte{0xaa, 0, 0, 1}, u4(16)...), u4(0)...), append(u4(0), append(u4(16), 0xb1)...)...)))
	assert.ErrorContains(t, err, "padding")
}

// TestPoolLimits: a Utf8 of 65,535 encoded bytes is added, one more byte
// is refused; a parsed pool's Integers and Strings are found, not added
// again.
func TestPoolLimits(t *testing.T) {
	var p cf.ConstantPool
	_, err := p.AddUtf8(strings.Repeat("a", 65535))
	require.NoError(t, err)
	_, err = p.AddUtf8(strings.Repeat("a", 65536))
	assert.ErrorContains(t, err, "string of 65536 encoded bytes does not fit a Utf8 constant")
	_, err = p.AddUtf8(strings.Repeat("\x00", 32768)) // two bytes each
	assert.Error(t, err)

	e := [][]byte{utf8Entry("A"), entry(cf.TagClass, 1), {cf.TagInteger, 0, 0, 0, 9}, utf8Entry("s"), entry(cf.TagString, 4)}
	c, err := cf.Parse(classBytes(e, 6, 2, 0, nil, nil))
	require.NoError(t, err)
	i, err := c.Pool.AddInteger(9)
	require.NoError(t, err)
	assert.Equal(t, uint16(3), i)
	s, err := c.Pool.AddString("s")
	require.NoError(t, err)
	assert.Equal(t, uint16(5), s)
	assert.Equal(t, 6, c.Pool.Count())
}

// TestEncodeHandlerCount: 65,535 exception handlers are written, one more
// is refused.
func TestEncodeHandlerCount(t *testing.T) {
	c := &cf.Code{}
	a, b := c.NewLabel(), c.NewLabel()
	c.Insns = []cf.Insn{{Op: cf.NOP, Mark: a}, {Op: cf.RETURN, Mark: b}}
	c.Handlers = make([]cf.Handler, 0xFFFF)
	for i := range c.Handlers {
		c.Handlers[i] = cf.Handler{Start: a, End: b, Handler: b}
	}
	_, err := c.Encode()
	require.NoError(t, err)
	c.Handlers = append(c.Handlers, c.Handlers[0])
	_, err = c.Encode()
	assert.ErrorContains(t, err, "too many exception handlers (65536)")
}

// TestDecodeBranchAndFrameEdges: a branch back to the first instruction;
// a bad branch at offset 0 named as a branch (not a switch target); an
// empty exception range refused as such; frames at the short forms' last
// deltas (same_frame 63, same_locals_1_stack_item 127).
func TestDecodeBranchAndFrameEdges(t *testing.T) {
	c, err := cf.Parse(smallClass(t))
	require.NoError(t, err)
	pool := c.Pool
	smt, err := pool.AddUtf8("StackMapTable")
	require.NoError(t, err)
	back := code(1, 1, []byte{0x00, 0xa7, 0xff, 0xff, 0xb1})
	got, err := cf.DecodeCode(pool, back)
	require.NoError(t, err)
	again, err := got.Encode()
	require.NoError(t, err)
	assert.Equal(t, back, again)

	_, err = cf.DecodeCode(pool, code(1, 1, []byte{0xa7, 0x00, 0x01, 0xb1}))
	assert.ErrorContains(t, err, "branch target 1 is not the start of an instruction")
	_, err = cf.DecodeCode(pool, code(1, 1, []byte{0x00, 0xb1}, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0))
	assert.ErrorContains(t, err, "exception table entry 0: start 1 >= end 1")

	insns := append(make([]byte, 130), 0xb1)
	frames := []byte{0, 2, 63, 127, 1} // same at 63; same_locals_1 (int) at 63+63+1
	attr := binary.BigEndian.AppendUint16(nil, smt)
	attr = binary.BigEndian.AppendUint32(attr, uint32(len(frames)))
	body := code(1, 1, insns, append([]byte{0, 0, 0, 1}, append(attr, frames...)...)...)
	got, err = cf.DecodeCode(pool, body)
	require.NoError(t, err)
	_, labels, err := got.Offsets()
	require.NoError(t, err)
	fs := got.StackMapTable().Frames
	require.Len(t, fs, 2)
	assert.Equal(t, cf.FrameSame, fs[0].Kind)
	assert.Equal(t, 63, labels[fs[0].At])
	assert.Equal(t, cf.FrameSameLocals1, fs[1].Kind)
	assert.Equal(t, 127, labels[fs[1].At])
	again, err = got.Encode()
	require.NoError(t, err)
	assert.Equal(t, body, again)
}
