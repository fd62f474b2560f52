package bot

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mattn/go-sqlite3"

	"github.com/stolik-bot/stolik/engine/table"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestLoadExampleWithEnvToken(t *testing.T) {
	cfg, err := Load("../config.example.toml", false, env(map[string]string{EnvToken: " tok ", EnvDatabase: "/data/s.db"}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Token != "tok" || cfg.Database != "/data/s.db" || cfg.DefaultLang != "en" || cfg.ShutdownTimeout.Duration != 20*time.Second || cfg.AIBot != "heuristic" || !cfg.Pictures {
		t.Errorf("config = %+v", cfg)
	}
}

func TestLoadFileAndOverride(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.toml")
	if err := os.WriteFile(path, []byte("token = \"file\"\nguild_id = \"123\"\nlog_level = \"debug\"\nlog_format = \"json\"\npictures = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(path, false, env(nil))
	if err != nil || cfg.Token != "file" || cfg.GuildID != "123" || cfg.Database != "stolik.db" || cfg.Pictures {
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

// tokenLike is a token: no configuration error may show it, nor any
// 6-character piece of it.
const tokenLike = "MTI3NDU2Nzg5MDEyMzQ1Njc4OQ.GhIjKl.q8Zr-Vw3_xYpLm0sT5uB9nQe2cFa"

// leaks reports a 6-character piece of s found in text.
func leaks(text, s string) (string, bool) {
	for i := 0; i+6 <= len(s); i++ {
		if strings.Contains(text, s[i:i+6]) {
			return s[i : i+6], true
		}
	}
	return "", false
}

// TestConfigErrorsHideValues: every key refuses a token-like value it
// cannot take with an error that names the key, says what it takes and
// shows nothing of the value; so do the environment variables, a TOML
// syntax error on a line holding the token, and unknown keys.
func TestConfigErrorsHideValues(t *testing.T) {
	q := `"` + tokenLike + `"`
	cases := []struct {
		name string
		file string            // the configuration file ("" for none)
		env  map[string]string // besides a valid token
		key  string            // the key the error must name; "" for a syntax error
		line int               // the syntax error's line
	}{
		{"token with a prefix", `token = "Bot ` + tokenLike + `"`, nil, "token", 0},
		{"token in an array", `token = [` + q + `]`, nil, "token", 0},
		{"token unquoted", "# the bot\ntoken = " + tokenLike + "\n", nil, "", 2},
		{"token alone on a line", "log_level = \"info\"\n" + tokenLike + "\n", nil, "", 2},
		{"token with an open quote", `token = "` + tokenLike, nil, "", 1},
		{"token as a section", "[" + tokenLike + "]\nx = 1\n", nil, "1 not shown", 0},
		{"token as a quoted key", q + ` = "x"`, nil, "1 not shown", 0},
		{"database in a table", `database = { path = ` + q + ` }`, nil, "database", 0},
		{"guild_id", `guild_id = ` + q, nil, "guild_id", 0},
		{"default_lang", `default_lang = ` + q, nil, "default_lang", 0},
		{"log_level", `log_level = ` + q, nil, "log_level", 0},
		{"log_format", `log_format = ` + q, nil, "log_format", 0},
		{"shutdown_timeout", `shutdown_timeout = ` + q, nil, "shutdown_timeout", 0},
		{"ai_bot", `ai_bot = ` + q, nil, "ai_bot", 0},
		{"standin_ai", `standin_ai = ` + q, nil, "standin_ai", 0},
		{"table_cache", `table_cache = ` + q, nil, "table_cache", 0},
		{"publish_interval", `publish_interval = ` + q, nil, "publish_interval", 0},
		{"ping_quiet", `ping_quiet = ` + q, nil, "ping_quiet", 0},
		{"resume_window", `resume_window = ` + q, nil, "resume_window", 0},
		{"pictures", `pictures = ` + q, nil, "pictures", 0},
		{"shard", `shard = ` + q, nil, "shard", 0},
		{"shards", `shards = ` + q, nil, "shards", 0},
		{"rest_rate", `rest_rate = ` + q, nil, "rest_rate", 0},
		{"http_listen", `http_listen = ` + q + "\npublic_key = \"" + strings.Repeat("ab", 32) + `"`, nil, "http_listen", 0},
		{"public_key", `public_key = ` + q, nil, "public_key", 0},
		{"STOLIK_HTTP_LISTEN", "", map[string]string{EnvHTTPListen: tokenLike, EnvPublicKey: strings.Repeat("ab", 32)}, EnvHTTPListen, 0},
		{"STOLIK_PUBLIC_KEY", "", map[string]string{EnvPublicKey: tokenLike}, EnvPublicKey, 0},
		{"STOLIK_SHARD", "", map[string]string{EnvShard: tokenLike}, EnvShard, 0},
		{"STOLIK_SHARDS", "", map[string]string{EnvShards: tokenLike}, EnvShards, 0},
		{"DISCORD_TOKEN with a prefix", "", map[string]string{EnvToken: "Bot " + tokenLike}, EnvToken, 0},
		{"STOLIK_TEST_DISCORD_URL", "", map[string]string{EnvDiscordURL: tokenLike}, EnvDiscordURL, 0},
	}
	covered := map[string]bool{}
	for _, c := range cases {
		covered[c.key] = true
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "stolik.toml")
			if c.file != "" {
				body := c.file
				if !strings.Contains(body, "token =") {
					body = "token = \"tok\"\n" + body
					c.line += 1
				}
				if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			vars := map[string]string{}
			if c.file == "" {
				vars[EnvToken] = "tok"
			}
			for k, v := range c.env {
				vars[k] = v
			}
			_, err := Load(path, c.file == "", env(vars))
			if err == nil {
				t.Fatal("accepted")
			}
			if piece, ok := leaks(err.Error(), tokenLike); ok {
				t.Errorf("the error shows %q of the value: %v", piece, err)
			}
			var ce *ConfigError
			var se *ConfigSyntaxError
			switch {
			case c.key == "":
				if !errors.As(err, &se) || se.Line != c.line || se.Column < 1 || se.Path != path {
					t.Errorf("want a syntax error on line %d: %#v", c.line, err)
				}
			case !errors.As(err, &ce):
				t.Errorf("want a ConfigError: %#v", err)
			case !strings.Contains(ce.Key, c.key):
				t.Errorf("the error names %q, want %q: %v", ce.Key, c.key, err)
			case ce.Msg == "":
				t.Errorf("the error does not say what the key takes: %v", err)
			}
		})
	}
	// Every key of the file has a case.
	for _, k := range configKeys {
		if !covered[k.name] {
			t.Errorf("no case for the key %s", k.name)
		}
	}
}

// TestConfigKeysMatchTheStruct: every key Config reads from TOML is in
// configKeys (which decodes and describes them), and nothing else is.
func TestConfigKeysMatchTheStruct(t *testing.T) {
	var tags []string
	rt := reflect.TypeFor[Config]()
	for i := range rt.NumField() {
		if tag := rt.Field(i).Tag.Get("toml"); tag != "" && tag != "-" {
			tags = append(tags, tag)
		}
	}
	var keys []string
	var cfg Config
	for _, k := range configKeys {
		keys = append(keys, k.name)
		if k.field(&cfg) == nil {
			t.Errorf("%s: no field", k.name)
		}
	}
	slices.Sort(tags)
	slices.Sort(keys)
	if !slices.Equal(tags, keys) {
		t.Errorf("struct tags %v, configKeys %v", tags, keys)
	}
}

// TestUnknownKeysNamed: a misspelt key is named; the keys there are listed.
func TestUnknownKeysNamed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.toml")
	if err := os.WriteFile(path, []byte("token = \"x\"\nlog_levle = \"debug\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path, false, env(nil))
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Key != "log_levle" || !strings.Contains(ce.Msg, "log_level") {
		t.Errorf("a misspelt key: %v", err)
	}
}

// TestLoggerThrottlesRepeats: the logger the configuration builds holds
// back repeated errors of one kind (a full disk) and counts them, and tells
// apart what logKind tells apart (two damaged tables, two SQLite codes).
func TestLoggerThrottlesRepeats(t *testing.T) {
	now := time.Date(2026, 8, 7, 12, 0, 0, 0, time.UTC)
	var buf strings.Builder
	cfg := Defaults()
	cfg.LogFormat = "json"
	log := cfg.loggerAt(&buf, func() time.Time { return now })
	full := fmt.Errorf("store: appending: %w", sqlite3.Error{Code: sqlite3.ErrFull})
	locked := fmt.Errorf("store: appending: %w", sqlite3.Error{Code: sqlite3.ErrBusy})
	for range 3315 {
		log.Error("acting", "table", "abc", "err", full)
	}
	log.Error("acting", "err", locked)
	log.Error("a table's saved record is damaged", "table", "t1", "err", &table.CorruptError{ID: "t1", Err: errors.New("bad options")})
	log.Error("a table's saved record is damaged", "table", "t2", "err", &table.CorruptError{ID: "t2", Err: errors.New("bad options")})
	log.Info("moved")
	log.Info("moved")
	now = now.Add(10 * time.Second)
	log.Error("acting", "table", "abc", "err", full)
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		s := fmt.Sprint(m["msg"])
		if n, ok := m["suppressed"]; ok {
			s += fmt.Sprintf(" suppressed=%v", n)
		}
		got = append(got, s)
	}
	want := []string{"acting", "acting", "a table's saved record is damaged", "a table's saved record is damaged", "moved", "moved", "acting suppressed=3314"}
	if !slices.Equal(got, want) {
		t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestShardKeys: shard and shards (and STOLIK_SHARD, STOLIK_SHARDS, which
// take precedence over the file) must hold 0 <= shard < shards; an error
// names the key, or the environment variable the value came from, and
// never shows the value.
func TestShardKeys(t *testing.T) {
	cases := []struct {
		name              string
		file              string
		env               map[string]string
		key               string // "" when valid
		wantShard, wantOf int
	}{
		{"default: one process", "", nil, "", 0, 1},
		{"shard 2 of 3", "shard = 2\nshards = 3\n", nil, "", 2, 3},
		{"shards alone", "shards = 4\n", nil, "", 0, 4},
		{"shard equal to shards", "shard = 3\nshards = 3\n", nil, "shard", 0, 0},
		{"shard without shards", "shard = 1\n", nil, "shard", 0, 0},
		{"negative shard", "shard = -1\nshards = 2\n", nil, "shard", 0, 0},
		{"no shards", "shards = 0\n", nil, "shards", 0, 0},
		{"negative shards", "shards = -2\n", nil, "shards", 0, 0},
		{"negative rest_rate", "rest_rate = -1\n", nil, "rest_rate", 0, 0},
		{"shard as text", "shard = \"1\"\nshards = 2\n", nil, "shard", 0, 0},
		{"shards as a fraction", "shards = 1.5\n", nil, "shards", 0, 0},
		{"env overrides the file", "shard = 0\nshards = 2\n", map[string]string{EnvShard: "1"}, "", 1, 2},
		{"env alone", "", map[string]string{EnvShard: " 2 ", EnvShards: "3"}, "", 2, 3},
		{"env shard out of range", "shards = 2\n", map[string]string{EnvShard: "2"}, EnvShard, 0, 0},
		{"env shards too few", "shard = 1\nshards = 4\n", map[string]string{EnvShards: "1"}, "shard", 0, 0},
		{"env shards zero", "", map[string]string{EnvShards: "0"}, EnvShards, 0, 0},
		{"env shard not a number", "", map[string]string{EnvShard: "one"}, EnvShard, 0, 0},
		{"env shards not a number", "", map[string]string{EnvShards: "3x"}, EnvShards, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "stolik.toml")
			if err := os.WriteFile(path, []byte("token = \"tok\"\n"+c.file), 0o600); err != nil {
				t.Fatal(err)
			}
			cfg, err := Load(path, false, env(c.env))
			if c.key == "" {
				if err != nil {
					t.Fatal(err)
				}
				if cfg.Shard != c.wantShard || cfg.Shards != c.wantOf {
					t.Errorf("shard %d of %d, want %d of %d", cfg.Shard, cfg.Shards, c.wantShard, c.wantOf)
				}
				return
			}
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Key != c.key || ce.Msg == "" {
				t.Fatalf("want a ConfigError naming %s: %v", c.key, err)
			}
			for _, v := range c.env {
				if len(strings.TrimSpace(v)) > 1 && strings.Contains(err.Error(), " "+strings.TrimSpace(v)+" ") {
					t.Errorf("the error shows the value %q: %v", v, err)
				}
			}
		})
	}
}

// TestHTTPInteractionsKeys: http_listen needs public_key, 64 hex digits
// (the application's Ed25519 key); the environment overrides both.
func TestHTTPInteractionsKeys(t *testing.T) {
	key := strings.Repeat("0f", 32)
	cases := []struct {
		name       string
		file       string
		env        map[string]string
		key        string // "" when valid
		wantListen string
	}{
		{"default: off", "", nil, "", ""},
		{"on", "http_listen = \":8080\"\npublic_key = \"" + key + "\"\n", nil, "", ":8080"},
		{"host and port", "http_listen = \"127.0.0.1:0\"\npublic_key = \"" + strings.ToUpper(key) + "\"\n", nil, "", "127.0.0.1:0"},
		{"no public key", "http_listen = \":8080\"\n", nil, "public_key", ""},
		{"a short key", "http_listen = \":8080\"\npublic_key = \"" + key[2:] + "\"\n", nil, "public_key", ""},
		{"a key not hex", "http_listen = \":8080\"\npublic_key = \"" + "zz" + key[2:] + "\"\n", nil, "public_key", ""},
		{"a bad key alone", "public_key = \"abc\"\n", nil, "public_key", ""},
		{"no port", "http_listen = \"localhost\"\npublic_key = \"" + key + "\"\n", nil, "http_listen", ""},
		{"a number", "http_listen = 8080\npublic_key = \"" + key + "\"\n", nil, "http_listen", ""},
		{"env", "", map[string]string{EnvHTTPListen: " :9000 ", EnvPublicKey: key}, "", ":9000"},
		{"env key over the file's", "http_listen = \":8080\"\npublic_key = \"xx\"\n", map[string]string{EnvPublicKey: key}, "", ":8080"},
		{"env bad key", "http_listen = \":8080\"\n", map[string]string{EnvPublicKey: "123"}, EnvPublicKey, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "stolik.toml")
			if err := os.WriteFile(path, []byte("token = \"tok\"\n"+c.file), 0o600); err != nil {
				t.Fatal(err)
			}
			cfg, err := Load(path, false, env(c.env))
			if c.key == "" {
				if err != nil {
					t.Fatal(err)
				}
				if cfg.HTTPListen != c.wantListen {
					t.Errorf("http_listen %q, want %q", cfg.HTTPListen, c.wantListen)
				}
				return
			}
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Key != c.key || ce.Msg == "" {
				t.Fatalf("want a ConfigError naming %s: %v", c.key, err)
			}
		})
	}
}

// TestShardOf: Discord's formula, (guild_id >> 22) % shards; direct
// messages (no guild) on shard 0.
func TestShardOf(t *testing.T) {
	cases := []struct {
		guild  string
		shards int
		want   int
	}{
		{"", 3, 0},
		{"", 1, 0},
		{"81384788765712384", 1, 0},
		// 81384788765712384 >> 22 = 19403645698 (Discord's example guild).
		{"81384788765712384", 2, 19403645698 % 2},
		{"81384788765712384", 3, 19403645698 % 3},
		{"81384788765712384", 16, 19403645698 % 16},
		{strconv.FormatUint(5<<22, 10), 3, 2},
		{strconv.FormatUint(5<<22|(1<<22-1), 10), 3, 2},
		{strconv.FormatUint(6<<22, 10), 3, 0},
		{"18446744073709551615", 7, int((18446744073709551615 >> 22) % 7)},
		{"not-a-snowflake", 3, 0},
		{"123", 0, 0},
	}
	for _, c := range cases {
		if got := ShardOf(c.guild, c.shards); got != c.want {
			t.Errorf("ShardOf(%q, %d) = %d, want %d", c.guild, c.shards, got, c.want)
		}
	}
	cfg := Config{Shard: 1, Shards: 3}
	if !cfg.OnShard(strconv.FormatUint(4<<22, 10)) || cfg.OnShard(strconv.FormatUint(5<<22, 10)) || cfg.OnShard("") {
		t.Error("OnShard does not follow ShardOf")
	}
	if one := (Config{}); !one.OnShard("") || !one.OnShard("81384788765712384") {
		t.Error("a configuration without shards holds every guild")
	}
}

// TestLoggerRedacts: whatever a log line quotes — the configured token, a
// database password, an interaction's token in a URL — is redacted.
func TestLoggerRedacts(t *testing.T) {
	var b strings.Builder
	cfg := Defaults()
	cfg.Token = "configured-bot-token-1234"
	log := cfg.Logger(&b)
	log.Error("answering an interaction", "err", `Patch "https://discord.com/api/v9/webhooks/1300000000000000001/aW50ZXJhY3Rpb246MTU3Njo/messages/@original": EOF`,
		"db", "postgres://u:hunter2@db/stolik", "echo", "token configured-bot-token-1234")
	out := b.String()
	for _, secret := range []string{"configured-bot-token-1234", "hunter2", "aW50ZXJhY3Rpb246MTU3Njo"} {
		if strings.Contains(out, secret) {
			t.Errorf("the log holds %q: %s", secret, out)
		}
	}
	if !strings.Contains(out, "answering an interaction") {
		t.Errorf("the line itself is gone: %q", out)
	}
}
