package view

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/tracebeat/tracebeat/decode/htmlview"
)

// Page is the page a served index opens with: the template in server
// mode, the call tree and the threads' names, no slices.
func (x *Index) Page(title string) ([]byte, error) {
	var buf bytes.Buffer
	bw := bufio.NewWriter(&buf)
	bw.WriteString(htmlview.Head(title))
	meta := htmlview.Meta{Title: title, Process: x.Process, Clock: x.Clock, Notes: x.Notes, Names: x.Names,
		LengthNs: x.LengthNs, Lost: x.Lost, Tree: x.Tree.Nodes, Server: true}
	meta.TMin, meta.TMax = math.MaxInt64, math.MinInt64
	for _, t := range x.shown() {
		meta.TMin = min(meta.TMin, t.start[0])
		for i := 0; i < t.Len(); i = int(t.next[i]) {
			meta.TMax = max(meta.TMax, t.end[i]) // the top-level calls end last
		}
		meta.Threads = append(meta.Threads, htmlview.Thread{Pid: t.Pid, Tid: t.Tid, Name: t.Name, Slices: t.Len(), MaxDepth: t.MaxDepth, Blocks: []int{}})
	}
	if meta.TMin > meta.TMax {
		meta.TMin, meta.TMax = 0, 1
	}
	if err := htmlview.WriteTail(bw, meta); err != nil {
		return nil, err
	}
	if err := bw.Flush(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Handler serves the page at / and the calls of a window at
// /window?from=NS&to=NS&px=PIXELS[&depth=ROWS] (every thread's, down to
// ROWS deep, encodeWindows), and
// nothing else. A request whose Host is not the address it listens on is refused:
// a page of another site cannot read the trace through a name that
// resolves to 127.0.0.1.
func (x *Index) Handler(page []byte, host string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	})
	mux.HandleFunc("GET /window", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		from, err1 := strconv.ParseInt(q.Get("from"), 10, 64)
		to, err2 := strconv.ParseInt(q.Get("to"), 10, 64)
		px, err3 := strconv.ParseInt(q.Get("px"), 10, 64)
		depth, err4 := int64(1<<16), error(nil)
		if d := q.Get("depth"); d != "" {
			depth, err4 = strconv.ParseInt(d, 10, 64)
		}
		if err := errors.Join(err1, err2, err3, err4); err != nil || to < from || px < 1 || px > 1<<20 || depth < 1 {
			http.Error(w, "want /window?from=NS&to=NS&px=PIXELS[&depth=ROWS], from <= to, 1 <= px <= 2^20, depth >= 1", http.StatusBadRequest)
			return
		}
		per := max((to-from)/px, 1)
		var wins []Window
		for _, t := range x.shown() {
			wins = append(wins, t.Window(from, to, per, int(min(depth, 1<<16))))
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(encodeWindows(wins))
	})
	_, port, _ := net.SplitHostPort(host)
	local := "localhost:" + port // the name every system keeps for itself
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Host != host && r.Host != local {
			http.Error(w, "this server answers requests for "+host+" only", http.StatusForbidden)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// Serve listens on 127.0.0.1:port (0: a free port), says where on out,
// and serves until ctx ends.
func (x *Index) Serve(ctx context.Context, port int, title string, out io.Writer) error {
	page, err := x.Page(title)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return err
	}
	host := ln.Addr().String()
	srv := &http.Server{Handler: x.Handler(page, host), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(out, "http://%s/\n", host)
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// shown are the threads with calls, in the page's order: the windows
// answer them in the same order.
func (x *Index) shown() []*Thread {
	var out []*Thread
	for _, t := range x.Threads {
		if t.Len() > 0 {
			out = append(out, t)
		}
	}
	return out
}

// encodeWindows packs windows as little-endian float64s, which the page
// reads as one Float64Array (JSON took most of a zoom step's time on a
// window of a hundred thousand calls): the number of windows, then each
// window's calls, merged calls and slices, and its slices, five numbers
// each (Window's). Times up to 2^53 ns (104 days) are exact.
func encodeWindows(wins []Window) []byte {
	n := 1
	for _, w := range wins {
		n += 3 + len(w.Slices)
	}
	out := make([]byte, 0, 8*n)
	put := func(v int64) { out = binary.LittleEndian.AppendUint64(out, math.Float64bits(float64(v))) }
	put(int64(len(wins)))
	for _, w := range wins {
		put(w.Calls)
		put(w.Merged)
		put(int64(len(w.Slices) / 5))
		for _, v := range w.Slices {
			put(v)
		}
	}
	return out
}
