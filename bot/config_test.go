package bot

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestLoadExampleWithEnvToken(t *testing.T) {
	cfg, err := Load("../config.example.toml", false, env(map[string]string{EnvToken: " tok ", EnvDatabase: "/data/s.db"}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Token != "tok" || cfg.Database != "/data/s.db" || cfg.DefaultLang != "en" || cfg.ShutdownTimeout.Duration != 20*time.Second || cfg.AIBot != "heuristic" {
		t.Errorf("config = %+v", cfg)
	}
}

func TestLoadFileAndOverride(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.toml")
	if err := os.WriteFile(path, []byte("token = \"file\"\nguild_id = \"123\"\nlog_level = \"debug\"\nlog_format = \"json\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(path, false, env(nil))
	if err != nil || cfg.Token != "file" || cfg.GuildID != "123" || cfg.Database != "stolik.db" {
		t.Fatalf("cfg = %+v, %v", cfg, err)
	}
	cfg, err = Load(path, false, env(map[string]string{EnvToken: "env"}))
	if err != nil || cfg.Token != "env" {
		t.Fatalf("the environment must win: %+v, %v", cfg, err)
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := Load(filepath.Join(t.TempDir(), "none.toml"), true, env(nil)); !errors.Is(err, ErrNoToken) {
		t.Errorf("no token: %v", err)
	} else if !strings.Contains(err.Error(), "Reset Token") || !strings.Contains(err.Error(), "Developer Portal") {
		t.Errorf("the message must say how to get a token: %v", err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "none.toml"), false, env(map[string]string{EnvToken: "x"})); err == nil {
		t.Error("a missing file that was asked for must fail")
	}
	for _, body := range []string{
		"guild_id = \"abc\"", "default_lang = \"de\"", "log_level = \"loud\"", "log_format = \"xml\"",
		"shutdown_timeout = \"soon\"", "unknown_key = 1",
	} {
		path := filepath.Join(t.TempDir(), "c.toml")
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(path, false, env(map[string]string{EnvToken: "x"})); err == nil {
			t.Errorf("%s: want an error", body)
		}
	}
}
