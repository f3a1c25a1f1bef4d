package main

import (
	"bufio"
	"flag"
	"io"
	"log"
	"os"
	"runtime/pprof"

	"github.com/tracebeat/tracebeat/decode"
)

func main() {
	mapPath := flag.String("map", "", "")
	format := flag.String("format", "json", "")
	prof := flag.String("cpuprofile", "cpu.out", "")
	flag.Parse()
	mf, err := os.Open(*mapPath)
	if err != nil {
		log.Fatal(err)
	}
	names, err := decode.ReadMethodNames(bufio.NewReader(mf), *mapPath)
	if err != nil {
		log.Fatal(err)
	}
	in, err := os.Open(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	pf, _ := os.Create(*prof)
	pprof.StartCPUProfile(pf)
	_, err = decode.Decode(in, io.Discard, decode.Options{Format: decode.Format(*format), Names: names})
	pprof.StopCPUProfile()
	if err != nil {
		log.Fatal(err)
	}
}
