package classfile_test

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	cf "github.com/tracebeat/tracebeat/classfile"
)

// memberClass is a class of pool 1 "A", 2 Class A, 3 "m", 4 "()V" (27
// bytes to its end), with the fields (from offset 35), methods and class
// attributes given raw, counts included.
func memberClass(fields, methods, attributes []byte) []byte {
	b := []byte{0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52, 0, 5}
	for _, e := range [][]byte{utf8Entry("A"), entry(cf.TagClass, 1), utf8Entry("m"), utf8Entry("()V")} {
		b = append(b, e...)
	}
	b = append(b, 0, 0x21, 0, 2, 0, 0, 0, 0) // access, this, super, no interfaces
	b = append(b, fields...)
	b = append(b, methods...)
	return append(b, attributes...)
}

// member is one field or method: access 0, name and descriptor as given,
// the attributes raw (count included).
func member(name, desc uint16, attributes ...byte) []byte {
	b := binary.BigEndian.AppendUint16([]byte{0, 0}, name)
	b = binary.BigEndian.AppendUint16(b, desc)
	if attributes == nil {
		attributes = []byte{0, 0}
	}
	return append(b, attributes...)
}

func count(n int, items ...[]byte) []byte {
	b := binary.BigEndian.AppendUint16(nil, uint16(n))
	for _, it := range items {
		b = append(b, it...)
	}
	return b
}

// TestMembersAndAttributes: lists exactly as long as their counts say
// parse (five fields of eight bytes, an attribute of six, 65 attributes
// of a method); counts that
// cannot fit in what is left are refused as such; a field or an
// attribute named by a constant that is not a Utf8 is refused, naming
// which; the header's errors name their offsets.
func TestMembersAndAttributes(t *testing.T) {
	none := count(0)
	f := member(3, 4)
	five := memberClass(count(5, f, f, f, f, f), none, none)
	c, err := cf.Parse(five)
	require.NoError(t, err)
	assert.Len(t, c.Fields, 5)
	emptyAttr := []byte{0, 1, 0, 0, 0, 0} // named "A", no bytes
	one := memberClass(none, count(1, member(3, 4, count(1, emptyAttr)...)), count(1, emptyAttr))
	c, err = cf.Parse(one)
	require.NoError(t, err)
	require.Len(t, c.Attributes, 1)
	assert.Empty(t, c.Attributes[0].Data)
	out, err := c.Encode()
	require.NoError(t, err)
	assert.Equal(t, one, out)

	// More attributes than the shared arena holds, and more than twice.
	many := make([][]byte, 65)
	for i := range many {
		many[i] = emptyAttr
	}
	c, err = cf.Parse(memberClass(none, count(1, member(3, 4, count(65, many...)...)), none))
	require.NoError(t, err)
	assert.Len(t, c.Methods[0].Attributes, 65)

	for _, tc := range []struct {
		name string
		data []byte
		want string
		at   int
	}{
		{"two fields in 14 bytes", memberClass(append(count(2, f), 0, 0, 0, 0, 0, 0), nil, nil), "2 fields cannot fit in the 14 bytes left", 37},
		{"two attributes in 10 bytes", memberClass(none, none, append(count(2, emptyAttr), 0, 0, 0, 0)), "2 attributes cannot fit in the 10 bytes left", 41},
		{"a field named by a class", memberClass(count(1, member(2, 4)), none, none), "field 0: name or descriptor index is not a Utf8 constant", 37},
		{"a method's attribute named by a class", memberClass(none, count(1, member(3, 4, count(1, []byte{0, 2, 0, 0, 0, 0})...)), none),
			"attribute name index 2 is not a Utf8 constant", 47},
		{"a class attribute named by a class", memberClass(none, none, count(1, []byte{0, 2, 0, 0, 0, 0})), "attribute name index 2 is not a Utf8 constant", 41},
		{"bad magic", append([]byte{0xca, 0xfe, 0xba, 0xbf}, five[4:]...), "bad magic 0xCAFEBABF", 0},
		{"a major version too new", append(append([]byte{}, five[:6]...), append([]byte{0, 99}, five[8:]...)...), "unsupported major version 99", 6},
	} {
		_, err := cf.Parse(tc.data)
		var fe *cf.FormatError
		require.True(t, errors.As(err, &fe), "%s: %v", tc.name, err)
		assert.Contains(t, fe.Msg, tc.want, tc.name)
		assert.Equal(t, tc.at, fe.Offset, tc.name)
	}
}

// TestNamesOfBadIndices: a member whose name or descriptor index is not
// a Utf8 has no name; Ref of a constant that is not a member reference
// (a Class, whose body is shorter than a reference's) is an error.
func TestNamesOfBadIndices(t *testing.T) {
	c, err := cf.Parse(memberClass(count(0), count(1, member(3, 4)), count(0)))
	require.NoError(t, err)
	_, _, err = c.MemberName(&cf.Member{Name: 2, Descriptor: 4})
	assert.Error(t, err, "a name of a Class constant")
	_, _, err = c.MemberName(&cf.Member{Name: 3, Descriptor: 2})
	assert.Error(t, err, "a descriptor of a Class constant")
	_, err = c.Pool.Ref(2)
	assert.ErrorContains(t, err, "constant pool index 2 is not a member reference (tag 7)")
}

// TestEncodeRefusesTooManyMemberAttributes: a method with more attributes
// than a u2 counts is an error of Encode.
func TestEncodeRefusesTooManyMemberAttributes(t *testing.T) {
	c, err := cf.Parse(memberClass(count(0), count(1, member(3, 4)), count(0)))
	require.NoError(t, err)
	c.Methods[0].Attributes = make([]cf.Attribute, 0x10000)
	_, err = c.Encode()
	assert.ErrorContains(t, err, "too many attributes (65536)")
}
