package classfile

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ev builds element_value bytes: a tag and its operands.
func u2(v int) []byte { return []byte{byte(v >> 8), byte(v)} }

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// TestAnnotationTypes reads the type of each annotation past element
// values of every kind, nested, and refuses what is cut short or unknown.
func TestAnnotationTypes(t *testing.T) {
	var pool ConstantPool
	_, err := pool.AddUtf8("")
	require.NoError(t, err)
	a, err := pool.AddUtf8("La/Traced;")
	require.NoError(t, err)
	b, err := pool.AddUtf8("Lb/Other;")
	require.NoError(t, err)
	scalars := cat([]byte{'B'}, u2(1), []byte{'C'}, u2(1), []byte{'D'}, u2(1), []byte{'F'}, u2(1), []byte{'I'}, u2(1),
		[]byte{'J'}, u2(1), []byte{'S'}, u2(1), []byte{'Z'}, u2(1), []byte{'s'}, u2(1), []byte{'c'}, u2(1))
	pairs := func(values ...[]byte) []byte {
		out := u2(len(values))
		for _, v := range values {
			out = append(append(out, u2(1)...), v...)
		}
		return out
	}
	var values [][]byte
	for i := 0; i < len(scalars); i += 3 {
		values = append(values, scalars[i:i+3])
	}
	enum := cat([]byte{'e'}, u2(1), u2(1))
	nested := cat([]byte{'@'}, u2(int(b)), pairs(enum))
	array := cat([]byte{'['}, u2(3), scalars[:3], nested, cat([]byte{'['}, u2(0)))
	body := cat(u2(2), u2(int(a)), pairs(append(values, enum, nested, array)...), u2(int(b)), pairs())

	got, err := AnnotationTypes(&pool, body)
	require.NoError(t, err)
	assert.Equal(t, []string{"La/Traced;", "Lb/Other;"}, got)

	got, err = AnnotationTypes(&pool, u2(0))
	require.NoError(t, err)
	assert.Empty(t, got)

	// Every cut of the body is refused, never read past.
	for n := range len(body) {
		_, err := AnnotationTypes(&pool, body[:n:n]) // no room past the cut to read
		assert.Error(t, err, "cut at %d", n)
	}
	_, err = AnnotationTypes(&pool, cat(u2(1), u2(int(a)), pairs([]byte{'x', 0, 1})))
	assert.ErrorContains(t, err, "annotations offset 8: unknown element_value tag 0x78")
	_, err = AnnotationTypes(&pool, cat(u2(1), u2(999), pairs()))
	assert.ErrorContains(t, err, "annotations offset 2: type_index 999")

	// Nesting: 256 levels of arrays are read, one more is refused.
	deep := func(levels int) []byte {
		v := cat([]byte{'I'}, u2(1))
		for range levels - 1 {
			v = cat([]byte{'['}, u2(1), v)
		}
		return cat(u2(1), u2(int(a)), pairs(v))
	}
	_, err = AnnotationTypes(&pool, deep(maxAnnotationDepth))
	require.NoError(t, err)
	_, err = AnnotationTypes(&pool, deep(maxAnnotationDepth+1))
	assert.ErrorContains(t, err, fmt.Sprintf("annotation nesting deeper than %d", maxAnnotationDepth))
}

// TestParseTypeAnnotations reads each target kind allowed in code, with
// its offsets turned into labels, and keeps the rest raw.
func TestParseTypeAnnotations(t *testing.T) {
	labelAt := func(off int) (Label, error) {
		if off > 100 {
			return 0, fmt.Errorf("offset %d past the code", off)
		}
		return Label(off + 1), nil
	}
	rest := cat([]byte{1, 0, 0}, u2(7), u2(0)) // a type path of one step, type_index, no pairs
	body := cat(u2(5),
		[]byte{0x40}, u2(2), u2(3), u2(4), u2(1), u2(10), u2(0), u2(2), rest,
		[]byte{0x42}, u2(9), rest,
		[]byte{0x43}, u2(20), rest,
		[]byte{0x46}, u2(21), rest,
		[]byte{0x47}, u2(30), []byte{2}, rest,
	)
	got, err := parseTypeAnnotations(body, labelAt)
	require.NoError(t, err)
	want := []TypeAnnotation{
		{TargetType: 0x40, Ranges: []LocalVarRange{{4, 8, 1}, {11, 11, 2}}, Rest: rest},
		{TargetType: 0x42, ExceptionIndex: 9, Rest: rest},
		{TargetType: 0x43, Offset: 21, Rest: rest},
		{TargetType: 0x46, Offset: 22, Rest: rest},
		{TargetType: 0x47, Offset: 31, TypeArgument: 2, Rest: rest},
	}
	assert.Equal(t, want, got)

	for n := range len(body) {
		_, err := parseTypeAnnotations(body[:n:n], labelAt)
		assert.Error(t, err, "cut at %d", n)
	}
	_, err = parseTypeAnnotations(append(body, 0), labelAt)
	assert.ErrorContains(t, err, "1 trailing bytes")
	_, err = parseTypeAnnotations(cat(u2(1), []byte{0x13}, rest), labelAt)
	assert.ErrorContains(t, err, "type annotations offset 2: target type 0x13 is not allowed in Code")
	for _, bad := range [][]byte{
		cat(u2(1), []byte{0x40}, u2(1), u2(99), u2(5), u2(0), rest),
		cat(u2(1), []byte{0x41}, u2(1), u2(101), u2(0), u2(0), rest),
		cat(u2(1), []byte{0x44}, u2(101), rest),
		cat(u2(1), []byte{0x4B}, u2(101), []byte{0}, rest),
	} {
		_, err = parseTypeAnnotations(bad, labelAt)
		assert.ErrorContains(t, err, "past the code", "% x", bad)
	}
	// A range that starts inside an instruction and ends at one.
	inside := func(off int) (Label, error) {
		if off%2 == 1 {
			return 0, fmt.Errorf("offset %d is inside an instruction", off)
		}
		return Label(off + 1), nil
	}
	_, err = parseTypeAnnotations(cat(u2(1), []byte{0x40}, u2(1), u2(3), u2(1), u2(0), rest), inside)
	assert.ErrorContains(t, err, "offset 3 is inside an instruction")
	_, err = parseTypeAnnotations(cat(u2(1), []byte{0x40}, u2(1), u2(2), u2(1), u2(0), rest), inside)
	assert.ErrorContains(t, err, "offset 3 is inside an instruction", "its end")
}
