package classfile

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newPool is an empty pool whose index 0 is taken, as a parsed one's is.
func newPool(t *testing.T) *ConstantPool {
	t.Helper()
	var p ConstantPool
	_, err := p.AddUtf8("")
	require.NoError(t, err)
	return &p
}

// A Long or a Double takes two entries; the second is unusable, and the
// pool's bytes parse back the same.
func TestPoolAddsALongAsTwoEntries(t *testing.T) {
	for _, tag := range []uint8{TagLong, TagDouble} {
		p := newPool(t)
		body := []byte{1, 2, 3, 4, 5, 6, 7, 8}
		i, err := p.findOrAdd(tag, body)
		require.NoError(t, err)
		assert.Equal(t, uint16(1), i)
		assert.Equal(t, 3, p.Count())
		assert.Equal(t, uint8(0), p.Tag(2), "the second entry")
		_, _, err = p.Entry(2)
		assert.Error(t, err)
		u, err := p.AddUtf8("after")
		require.NoError(t, err)
		assert.Equal(t, uint16(3), u)
		again, err := p.findOrAdd(tag, body)
		require.NoError(t, err)
		assert.Equal(t, i, again, "found, not added")

		// count, "" , the constant (one tag, its body), "after".
		want := []byte{0, 4, TagUtf8, 0, 0, tag}
		want = append(want, body...)
		want = append(want, TagUtf8, 0, 5)
		want = append(want, "after"...)
		assert.Equal(t, want, p.appendTo(nil))
		gotTag, gotBody, err := p.Entry(1)
		require.NoError(t, err)
		assert.Equal(t, tag, gotTag)
		assert.Equal(t, body, gotBody)
	}
}

// A pool with one entry free takes a Utf8 but not a Long.
func TestPoolFullForTwoEntries(t *testing.T) {
	p := newPool(t)
	for k := int32(0); p.Count() < maxPoolCount-1; k++ {
		_, err := p.AddInteger(k)
		require.NoError(t, err)
	}
	i, err := p.findOrAdd(TagLong, make([]byte, 8))
	assert.ErrorIs(t, err, ErrPoolFull)
	assert.Equal(t, uint16(0), i)
	assert.Equal(t, maxPoolCount-1, p.Count())
	u, err := p.AddUtf8("fits")
	require.NoError(t, err)
	assert.Equal(t, uint16(maxPoolCount-1), u)
}

// An entry of another kind with the same body is not a match: a Methodref
// is not the InterfaceMethodref of the same class and name-and-type.
func TestPoolMatchesTheTagToo(t *testing.T) {
	p := newPool(t)
	c, err := p.AddClass("a/B")
	require.NoError(t, err)
	nt, err := p.AddNameAndType("run", "()V")
	require.NoError(t, err)
	iface, err := p.addIndexed(TagInterfaceMethodref, c, nt)
	require.NoError(t, err)
	field, err := p.addIndexed(TagFieldref, c, nt)
	require.NoError(t, err)
	assert.NotEqual(t, iface, field)
	m, err := p.AddMethodref("a/B", "run", "()V")
	require.NoError(t, err)
	assert.NotEqual(t, iface, m)
	assert.NotEqual(t, field, m)
	ref, err := p.Ref(m)
	require.NoError(t, err)
	assert.Equal(t, MemberRef{Tag: TagMethodref, Class: "a/B", Name: "run", Descriptor: "()V"}, ref)
	// A Class naming a Utf8 is not a String of it.
	s, err := p.AddString("a/B")
	require.NoError(t, err)
	assert.NotEqual(t, c, s)
	assert.Equal(t, uint8(TagString), p.Tag(s))
}

// Each Add that needs a Utf8 too long for one fails with index 0 and
// adds nothing past what it had added.
func TestPoolAddRefusesATooLongString(t *testing.T) {
	long := strings.Repeat("x", 1<<16)
	for _, tc := range []struct {
		name string
		add  func(p *ConstantPool) (uint16, error)
	}{
		{"AddUtf8", func(p *ConstantPool) (uint16, error) { return p.AddUtf8(long) }},
		{"AddClass", func(p *ConstantPool) (uint16, error) { return p.AddClass(long) }},
		{"AddString", func(p *ConstantPool) (uint16, error) { return p.AddString(long) }},
		{"AddNameAndType name", func(p *ConstantPool) (uint16, error) { return p.AddNameAndType(long, "()V") }},
		{"AddNameAndType descriptor", func(p *ConstantPool) (uint16, error) { return p.AddNameAndType("run", long) }},
		{"AddMethodref class", func(p *ConstantPool) (uint16, error) { return p.AddMethodref(long, "run", "()V") }},
		{"AddMethodref name", func(p *ConstantPool) (uint16, error) { return p.AddMethodref("a/B", long, "()V") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPool(t)
			i, err := tc.add(p)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "65536 encoded bytes does not fit a Utf8 constant")
			assert.Equal(t, uint16(0), i)
			for k := 1; k < p.Count(); k++ {
				tag := p.Tag(uint16(k))
				assert.Contains(t, []uint8{TagUtf8, TagClass}, tag, "entry %d: only what came before the long string", k)
			}
		})
	}
	// A Utf8 of 65,535 bytes is the largest.
	p := newPool(t)
	i, err := p.AddUtf8(long[1:])
	require.NoError(t, err)
	got, err := p.Utf8(i)
	require.NoError(t, err)
	assert.Len(t, got, 1<<16-1)
}

// The accessors of a pool built by hand (never validated, as a parsed one
// is) say what is wrong rather than answer.
func TestPoolAccessorsOnBrokenReferences(t *testing.T) {
	p := newPool(t)
	name, err := p.AddUtf8("run")
	require.NoError(t, err)
	intIndex, err := p.AddInteger(7)
	require.NoError(t, err)
	c, err := p.AddClass("a/B")
	require.NoError(t, err)
	nt, err := p.AddNameAndType("run", "()V")
	require.NoError(t, err)
	badNameNT, err := p.addIndexed(TagNameAndType, intIndex, name)
	require.NoError(t, err)
	badDescNT, err := p.addIndexed(TagNameAndType, name, intIndex)
	require.NoError(t, err)
	badClassRef, err := p.addIndexed(TagMethodref, intIndex, nt)
	require.NoError(t, err)
	badNTRef, err := p.addIndexed(TagMethodref, c, intIndex)
	require.NoError(t, err)
	badNameRef, err := p.addIndexed(TagMethodref, c, badNameNT)
	require.NoError(t, err)

	for _, i := range []uint16{badClassRef, badNTRef, badNameRef} {
		ref, err := p.Ref(i)
		assert.Error(t, err, "entry %d", i)
		assert.Equal(t, MemberRef{}, ref)
	}
	for _, i := range []uint16{badNameNT, badDescNT} {
		_, _, err := p.NameAndType(i)
		assert.Error(t, err, "entry %d", i)
	}
	n, d, err := p.NameAndType(badNameNT)
	assert.Equal(t, []string{"", ""}, []string{n, d})
	assert.Error(t, err)

	nat, err := p.IndyNameAndType(nt)
	assert.ErrorContains(t, err, "is not a dynamic constant")
	assert.Equal(t, uint16(0), nat)
	indy, err := p.addIndexed(TagInvokeDynamic, 0, nt)
	require.NoError(t, err)
	nat, err = p.IndyNameAndType(indy)
	require.NoError(t, err)
	assert.Equal(t, nt, nat)

	tag, body, err := p.Entry(uint16(p.Count()))
	assert.Error(t, err)
	assert.Equal(t, uint8(0), tag)
	assert.Nil(t, body)
	tag, body, err = p.Entry(intIndex)
	require.NoError(t, err)
	assert.Equal(t, uint8(TagInteger), tag)
	assert.Equal(t, binary.BigEndian.AppendUint32(nil, 7), body)
}
