package postgres_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/engine"
	_ "github.com/stolik-bot/stolik/engine/lynx" // the game played
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store/postgres"
	"github.com/stolik-bot/stolik/store/postgres/pgtest"
	"github.com/stolik-bot/stolik/store/storetest"
)

// cutProxy stands between the driver and the server on 127.0.0.1. Once
// armed, it lets through the first statement whose text holds marker (its
// Parse, then its Execute and the Sync that commits it), waits for the
// server to finish it (ReadyForQuery: committed), and then
// cuts the connection instead of passing the answer on: the driver sees a
// connection lost in the middle of a commit the server made, as when the
// server crashes between committing and answering.
type cutProxy struct {
	ln     net.Listener
	server string
	marker []byte
	// early cuts at the Sync after the statement's Parse, before it is
	// executed: nothing is stored, and the driver cannot tell either.
	early bool
	mu    sync.Mutex
	armed bool
	cuts  int
}

func newCutProxy(t *testing.T, server string, marker string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, server: server, marker: []byte(marker)}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.serve(c)
		}
	}()
	return p
}

func (p *cutProxy) arm() { p.mu.Lock(); p.armed = true; p.mu.Unlock() }

func (p *cutProxy) cutCount() int { p.mu.Lock(); defer p.mu.Unlock(); return p.cuts }

// serve relays one client connection, reading the client's messages one
// by one (the startup message first, which has no type byte).
func (p *cutProxy) serve(client net.Conn) {
	defer client.Close()
	server, err := net.Dial("tcp", p.server)
	if err != nil {
		return
	}
	defer server.Close()
	cut := make(chan struct{}) // the server finished the marked statement
	var swallow sync.Once
	swallowing := make(chan struct{})
	go func() { // server → client
		r := io.Reader(server)
		for {
			select {
			case <-swallowing:
				// Read the server's answer to its end and drop it.
				for {
					typ, body, err := readMsg(r)
					_ = body
					if err != nil || typ == 'Z' {
						close(cut)
						return
					}
				}
			default:
			}
			typ, body, err := readMsg(r)
			if err != nil {
				client.Close()
				return
			}
			if _, err := client.Write(frame(typ, body)); err != nil {
				return
			}
		}
	}()
	// The startup message: length, then its body.
	var n [4]byte
	if _, err := io.ReadFull(client, n[:]); err != nil {
		return
	}
	start := make([]byte, binary.BigEndian.Uint32(n[:])-4)
	if _, err := io.ReadFull(client, start); err != nil {
		return
	}
	if _, err := server.Write(append(n[:], start...)); err != nil {
		return
	}
	marked, executed := false, false
	for {
		typ, body, err := readMsg(client)
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.armed && bytes.Contains(body, p.marker) {
			marked, p.armed = true, false
		}
		p.mu.Unlock()
		if marked && (typ == 'E' || p.early) {
			executed = true // Execute: the Sync after it commits
		}
		if executed && typ == 'S' {
			// The statement's Sync: from here the server commits. Stop
			// passing the server's answer on, and cut once it is done.
			swallow.Do(func() { close(swallowing) })
			if _, err := server.Write(frame(typ, body)); err != nil {
				return
			}
			select {
			case <-cut:
			case <-time.After(10 * time.Second):
			}
			p.mu.Lock()
			p.cuts++
			p.mu.Unlock()
			return // closes both connections
		}
		if _, err := server.Write(frame(typ, body)); err != nil {
			return
		}
	}
}

func readMsg(r io.Reader) (byte, []byte, error) {
	var h [5]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return 0, nil, err
	}
	body := make([]byte, binary.BigEndian.Uint32(h[1:])-4)
	if _, err := io.ReadFull(r, body); err != nil {
		return 0, nil, err
	}
	return h[0], body, nil
}

func frame(typ byte, body []byte) []byte {
	out := make([]byte, 5, 5+len(body))
	out[0] = typ
	binary.BigEndian.PutUint32(out[1:], uint32(len(body)+4))
	return append(out, body...)
}

// TestCommitCutByACrash: through the real driver, a move whose connection
// is cut while it commits is reported as unsure, never as refused or not
// stored; reading the log again (table.Service.Settle) finds out what
// became of it: stored, once, when the server committed before the cut,
// and not stored when the cut came first. This is what the bot tells the
// player ("your move was made" or "was not made"), RELIABILITY.md 12.
func TestCommitCutByACrash(t *testing.T) {
	for _, tc := range []struct {
		name   string
		early  bool
		stored bool
	}{{"committed, the answer lost", false, true}, {"cut before the statement ran", true, false}} {
		t.Run(tc.name, func(t *testing.T) { testCommitCut(t, tc.early, tc.stored) })
	}
}

func testCommitCut(t *testing.T, early, want bool) {
	ctx := context.Background()
	dbURL := pgtest.URL(t)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	direct, err := postgres.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	g, _ := engine.Lookup("lynx")
	rec := storetest.Record("cut1", table.StatusPlaying)
	rec.Setup = engine.Setup{Game: "lynx", Seats: 2, Seed: 3}
	if err := direct.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	st, err := engine.Start(g, rec.Setup, nil)
	if err != nil {
		t.Fatal(err)
	}
	seat := st.Acting()[0]
	move := st.Legal(seat)[0].String()

	p := newCutProxy(t, u.Host, "INSERT INTO actions")
	p.early = early
	u.Host = p.ln.Addr().String()
	cutDB, err := postgres.Open(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer cutDB.Close()
	svc := table.New(cutDB)
	if _, err := svc.Get(ctx, "cut1"); err != nil {
		t.Fatal(err)
	}
	p.arm()
	_, _, err = svc.Act(ctx, "cut1", seat, move, 0)
	var unsure *table.UnsureError
	if !errors.As(err, &unsure) || !errors.Is(err, table.ErrUnsure) {
		t.Fatalf("a commit whose answer was cut: %v, want unsure", err)
	}
	if p.cutCount() != 1 {
		t.Fatalf("the proxy cut %d connections, want 1", p.cutCount())
	}
	stored, _, snap, err := svc.Settle(ctx, unsure)
	if err != nil || stored != want {
		t.Fatalf("Settle: stored %v, %v; want %v", stored, err, want)
	}
	n := 0
	if want {
		n = 1
	}
	if snap.Version != n {
		t.Errorf("after Settle the table is at version %d, want %d", snap.Version, n)
	}
	_, log, err := direct.Load(ctx, "cut1")
	if err != nil || len(log) != n || (want && log[0].Action != move) {
		t.Fatalf("the log: %v, %v; want %d entries", log, err, n)
	}
}
