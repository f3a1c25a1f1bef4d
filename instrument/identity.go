// A run snapshot belongs to one command: the same options, inputs,
// classpath, outputs and base map. Its identity names it in the cache.

package instrument

import (
	"crypto/sha256"
	"path/filepath"
	"strconv"

	"github.com/tracebeat/tracebeat/methodmap"
)

// runIdentity names the command a snapshot belongs to: options, inputs,
// classpath, outputs and the base map. It is computed once a run (the
// base map can hold hundreds of thousands of lines).
func (c *cacheStore) runIdentity(opt *Options) (string, error) {
	if c.identity == "" {
		id, err := identityOf(c, opt)
		if err != nil {
			return "", err
		}
		c.identity = id
	}
	return c.identity, nil
}

// identityOf is the identity of the command opt describes.
func identityOf(c *cacheStore, opt *Options) (string, error) {
	parts := [][]byte{[]byte("run"), boolBytes(opt.Merge), baseMapDigest(opt.Policy.BaseMap)}
	for _, group := range [][]string{{opt.Output, opt.MapPath}, opt.Inputs, {""}, opt.Classpath} {
		for _, path := range group {
			abs := ""
			if path != "" {
				var err error
				if abs, err = filepath.Abs(path); err != nil {
					return "", err
				}
			}
			parts = append(parts, []byte(abs))
		}
	}
	return c.Key(parts...), nil
}

func boolBytes(b bool) []byte { return []byte{boolByte(b)} }

// baseMapDigest stands for a given base map in a run's identity: a run
// with another one plans every method again.
func baseMapDigest(m *methodmap.Map) []byte {
	if m == nil {
		return nil
	}
	h := sha256.New()
	line := strconv.AppendInt(nil, int64(m.HighWater), 10)
	h.Write(append(line, '\n'))
	for _, e := range m.Entries {
		line = strconv.AppendInt(line[:0], int64(e.ID), 10)
		line = append(line, ',')
		line = strconv.AppendUint(line, uint64(e.Access), 10)
		for _, part := range []string{e.Key.Class, e.Key.Name, e.Key.Desc} {
			line = append(append(line, ' '), part...)
		}
		h.Write(append(line, '\n'))
	}
	return h.Sum(nil)
}
