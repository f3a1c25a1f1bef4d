package classfile_test

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	cf "github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/internal/javatest"
)

// decodedMethod is a Code kept alive across later decodes, with the bytes
// it came from.
type decodedMethod struct {
	pool *cf.ConstantPool
	raw  []byte
	code *cf.Code
	enc  []byte // code encoded right after decoding
}

// decodeAll decodes every Code attribute of the fixture classes.
func decodeAll(classes map[string][]byte) ([]decodedMethod, error) {
	var out []decodedMethod
	for _, name := range sortedNames(classes) {
		c, err := cf.Parse(classes[name])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for i := range c.Methods {
			a, ok := c.FindAttribute(c.Methods[i].Attributes, "Code")
			if !ok {
				continue
			}
			code, err := cf.DecodeCode(c.Pool, a.Data)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			enc, err := code.Encode()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			out = append(out, decodedMethod{c.Pool, a.Data, code, enc})
		}
	}
	return out, nil
}

// TestPooledDecodingDoesNotAlias: the decoder and encoder reuse scratch
// space and carve results out of shared chunks. Codes and encodings made
// by several goroutines at once, kept while those goroutines go on
// decoding, encoding and mutating their own results, must stay as they
// were, and mutating one Code or encoding (in place and by appending)
// must not show in any other. Run with -race to also catch unsynchronised
// sharing.
func TestPooledDecodingDoesNotAlias(t *testing.T) {
	javatest.RequireJava(t)
	classes := javatest.ClassFiles(t, javatest.ClassfileFixtures(t))
	const workers = 4
	kept := make([][]decodedMethod, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if kept[w], errs[w] = decodeAll(classes); errs[w] != nil {
				return
			}
			// Appending to a kept result must not reach its neighbours.
			for _, m := range kept[w] {
				appendJunk(m)
			}
			// Churn: more decodes whose results are scribbled on and
			// grown, reusing the same pooled decoders and chunk tails.
			for round := 0; round < 3; round++ {
				churn, err := decodeAll(classes)
				if err != nil {
					errs[w] = err
					return
				}
				for _, m := range churn {
					for i := range m.enc {
						m.enc[i] ^= 0xA5
					}
					_ = append(m.enc, 0xA5, 0xA5, 0xA5)
					scribble(m.code)
					_, _ = m.code.Encode() // scribbling may make a Code unencodable; that is fine
				}
			}
		}()
	}
	wg.Wait()
	for w := range kept {
		require.NoError(t, errs[w])
		require.NotEmpty(t, kept[w])
		for i, m := range kept[w] {
			require.True(t, bytes.Equal(m.raw, m.enc), "worker %d method %d: kept encoding changed under later encodes", w, i)
			enc, err := m.code.Encode()
			require.NoError(t, err, "worker %d method %d", w, i)
			require.True(t, bytes.Equal(m.raw, enc), "worker %d method %d: kept Code changed under later decodes", w, i)
		}
	}
}

// appendJunk appends to every slice of m without keeping the results: a
// slice whose capacity ran into a neighbour's memory would overwrite it.
func appendJunk(m decodedMethod) {
	_ = append(m.enc, make([]byte, 64)...)
	c := m.code
	_ = append(c.Insns, cf.Insn{Op: cf.ATHROW, A: -1, B: -1, Mark: 99, Target: 99})
	_ = append(c.Handlers, cf.Handler{Start: 99, End: 99, Handler: 99, CatchType: 0xFFFF})
	_ = append(c.Attributes, cf.CodeAttribute{Kind: cf.AttrRaw, Name: 0xFFFF})
	for i := range c.Attributes {
		a := &c.Attributes[i]
		_ = append(a.Lines, cf.LineNumber{Start: 99, Line: 0xFFFF})
		_ = append(a.Locals, cf.LocalVariable{Start: 99, End: 99, Index: 0xFFFF})
		_ = append(a.Frames, cf.Frame{Kind: cf.FrameFull, At: 99})
		for j := range a.Frames {
			_ = append(a.Frames[j].Locals, cf.VType{Tag: cf.VObject, Class: 0xFFFF})
			_ = append(a.Frames[j].Stack, cf.VType{Tag: cf.VObject, Class: 0xFFFF})
		}
	}
}

// scribble overwrites every decoded slice of c in place and appends to
// each, as a rewriter might.
func scribble(c *cf.Code) {
	for i := range c.Insns {
		c.Insns[i].A ^= 0x55
	}
	c.Insns = append(c.Insns, cf.Insn{Op: cf.NOP})
	for i := range c.Handlers {
		c.Handlers[i].CatchType ^= 0x55
	}
	c.Handlers = append(c.Handlers, cf.Handler{})
	for i := range c.Attributes {
		a := &c.Attributes[i]
		for j := range a.Lines {
			a.Lines[j].Line ^= 0x55
		}
		a.Lines = append(a.Lines, cf.LineNumber{})
		for j := range a.Locals {
			a.Locals[j].Index ^= 0x55
		}
		a.Locals = append(a.Locals, cf.LocalVariable{})
		for j := range a.Frames {
			f := &a.Frames[j]
			for k := range f.Locals {
				f.Locals[k].Tag ^= 0x5
			}
			f.Locals = append(f.Locals, cf.VType{})
			f.Stack = append(f.Stack, cf.VType{})
		}
		a.Frames = append(a.Frames, cf.Frame{})
	}
	c.Attributes = append(c.Attributes, cf.CodeAttribute{})
	*c = cf.Code{Insns: c.Insns} // and drop the rest, as a caller may
}
