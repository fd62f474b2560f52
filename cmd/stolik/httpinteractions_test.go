package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/bot/discordtest"
)

// TestServeHTTPInteractions runs `stolik serve` with http_listen and
// public_key (from the environment) against the fake Discord delivering
// interactions to that address: the endpoint passes the portal's check,
// a command is answered and its delivery gets 202, and SIGTERM stops the
// bot and the endpoint cleanly.
func TestServeHTTPInteractions(t *testing.T) {
	t.Parallel()
	const token = "http-test-token-XYZ789"
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "stolik.toml")
	if err := os.WriteFile(cfgPath, []byte("guild_id = \""+killGuild+"\"\npictures = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fake := discordtest.New(t, discordtest.WithToken(token))
	fake.AddGuild(killGuild, "HTTP", "en-US")
	const ch, user = "200000000000000001", "300000000000000001"
	fake.AddChannel(killGuild, ch)
	fake.AddUser(user, "ala", "en-US")

	// A free port (the bot takes it again at once).
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()

	var logs bytes.Buffer
	proc := exec.Command(os.Args[0], "-test.run=^$", "--", "--config", cfgPath)
	proc.Env = append(os.Environ(), "STOLIK_TEST_SERVE=1", "DISCORD_TOKEN="+token,
		"STOLIK_DB="+filepath.Join(dir, "stolik.db"), "STOLIK_TEST_DISCORD_URL="+fake.URL(),
		"STOLIK_HTTP_LISTEN="+addr, "STOLIK_PUBLIC_KEY="+hex.EncodeToString(pub))
	proc.Stdout, proc.Stderr = &logs, &logs
	if err := proc.Start(); err != nil {
		t.Fatal(err)
	}
	exited := false
	defer func() {
		if !exited {
			_ = proc.Process.Kill()
			_ = proc.Wait()
		}
		if t.Failed() {
			t.Logf("the bot's log:\n%s", logs.String())
		}
	}()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for len(fake.Commands(killGuild)) == 0 && ctx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
	}
	// The portal's check, once the endpoint listens.
	for {
		err := fake.SetInteractionsURL("http://"+addr+"/", priv)
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the endpoint: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Until the bot is ready the endpoint answers 503: Discord does not
	// retry, a user would try again.
	var in *discordtest.Interaction
	for {
		in = fake.SlashCommand(user, killGuild, ch, "stolik", discordtest.Sub("stats"))
		status, _, err := in.HTTPAnswer(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if status == http.StatusAccepted {
			break
		}
		if status != http.StatusServiceUnavailable || ctx.Err() != nil {
			t.Fatalf("the endpoint answered %d", status)
		}
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case <-in.Acked():
	case <-ctx.Done():
		t.Fatal("no answer")
	}
	if r, _ := in.Response(); r.Message == nil {
		t.Fatalf("the answer: %+v", r)
	}

	if err := proc.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := proc.Wait(); err != nil {
		t.Fatalf("serve: %v", err)
	}
	exited = true
	if !strings.Contains(logs.String(), "HTTP interactions endpoint listening") {
		t.Errorf("the log does not say the endpoint listens")
	}
	if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		c.Close()
		t.Errorf("the endpoint still listens after the bot stopped")
	}
}

// TestServeHTTPListenBusy: a port that is taken stops serve at once, with
// an error naming the key and not the address.
func TestServeHTTPListenBusy(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "stolik.toml")
	cfg := "token = \"tok\"\ndatabase = \"" + filepath.Join(dir, "s.db") + "\"\nhttp_listen = \"127.0.0.1:" + port + "\"\npublic_key = \"" + strings.Repeat("ab", 32) + "\"\n"
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var out, errOut bytes.Buffer
	err = cmdServe(ctx, []string{"--config", cfgPath}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "http_listen") || strings.Contains(err.Error(), port) {
		t.Fatalf("want an error naming http_listen and not the port: %v", err)
	}
}
