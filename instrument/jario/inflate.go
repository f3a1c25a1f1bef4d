// The zip decompressor of every jar a run reads.

package jario

import (
	"io"
	"sync"

	"github.com/klauspost/compress/flate"
)

// inflaters reuses decompressor state across entries.
var inflaters sync.Pool

// newInflater is the zip decompressor: klauspost/compress's inflate, which
// is faster than compress/flate, with its state pooled.
func newInflater(r io.Reader) io.ReadCloser {
	if f, ok := inflaters.Get().(io.ReadCloser); ok {
		if err := f.(flate.Resetter).Reset(r, nil); err == nil {
			return &pooledInflater{f}
		}
	}
	return &pooledInflater{flate.NewReader(r)}
}

type pooledInflater struct{ io.ReadCloser }

func (p *pooledInflater) Close() error {
	err := p.ReadCloser.Close()
	inflaters.Put(p.ReadCloser)
	p.ReadCloser = nil
	return err
}
