package main

import (
	"fmt"
	"io"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// newLogger builds the zap logger of a command: console or JSON lines on
// stderr, at the given level (error only with quiet).
func newLogger(w io.Writer, level, format string, quiet bool) (*zap.Logger, error) {
	lvl, err := zapcore.ParseLevel(level)
	if err != nil {
		return nil, fmt.Errorf("--log-level: %v", err)
	}
	if quiet {
		lvl = zapcore.ErrorLevel
	}
	encCfg := zap.NewProductionEncoderConfig()
	encCfg.TimeKey = ""
	var enc zapcore.Encoder
	switch format {
	case "console":
		encCfg.EncodeLevel = zapcore.LowercaseLevelEncoder
		enc = zapcore.NewConsoleEncoder(encCfg)
	case "json":
		enc = zapcore.NewJSONEncoder(encCfg)
	default:
		return nil, fmt.Errorf("--log-format: want console or json, got %q", format)
	}
	return zap.New(zapcore.NewCore(enc, zapcore.AddSync(w), lvl)), nil
}
