package traceout

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCheckPackets: a Perfetto trace is TracePackets to its end; anything
// else is named by its byte.
func TestCheckPackets(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		err  string
	}{
		{"two packets", []byte{0x0a, 0x01, 0x00, 0x0a, 0x00}, ""},
		{"empty", nil, "it is empty"},
		{"another field", []byte{0x12, 0x00}, "byte 0: field tag 0x12"},
		{"a packet cut", []byte{0x0a, 0x00, 0x0a, 0x05, 0x01}, "byte 2: a packet of 5 bytes where 1 are left"},
		{"text", []byte("1,1,a.B m ()V\n"), "byte 0: field tag 0x31"},
	} {
		err := CheckPackets(c.data)
		if c.err == "" {
			assert.NoError(t, err, c.name)
		} else {
			assert.ErrorContains(t, err, c.err, c.name)
		}
	}
}
