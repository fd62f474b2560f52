package bot

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/stolik-bot/stolik/locales"
)

// Environment variables that override the configuration file.
const (
	EnvToken    = "DISCORD_TOKEN"
	EnvDatabase = "STOLIK_DB"
	// EnvDiscordURL, for tests only, sends every REST and gateway request
	// to a fake Discord at this base URL (e.g. http://127.0.0.1:41234)
	// instead of discord.com. It has no configuration-file key on purpose.
	EnvDiscordURL = "STOLIK_TEST_DISCORD_URL"
)

// Config is the bot's configuration: a TOML file (see config.example.toml),
// with the token from DISCORD_TOKEN and the database from STOLIK_DB taking
// precedence over the file.
type Config struct {
	// Token is the bot token from the Discord Developer Portal.
	Token string `toml:"token"`
	// Database is the path of the SQLite file.
	Database string `toml:"database"`
	// GuildID registers the commands for one guild only (they update at
	// once, which suits a test server); empty registers them globally.
	GuildID string `toml:"guild_id"`
	// DefaultLang is the language of a table's public messages when neither
	// the table nor the server names one: en, pl or uk.
	DefaultLang string `toml:"default_lang"`
	// LogLevel is debug, info, warn or error.
	LogLevel string `toml:"log_level"`
	// LogFormat is text or json.
	LogFormat string `toml:"log_format"`
	// ShutdownTimeout bounds how long a shutdown waits for work in flight.
	ShutdownTimeout Duration `toml:"shutdown_timeout"`
	// AIBot is the kind of AI player that takes empty seats.
	AIBot string `toml:"ai_bot"`
	// TableCache is how many tables are kept in memory (least recently
	// used first out); others are loaded from the database on demand.
	TableCache int `toml:"table_cache"`
	// PublishInterval is the least time between two outputs of one table
	// in its channel (table message edit, event post); what comes in
	// meanwhile is merged. 0 sends every output at once.
	PublishInterval Duration `toml:"publish_interval"`
	// PingQuiet is how long after mentioning a player in a post the bot
	// does not mention them again in a post (the table message still names
	// whom it waits for). 0 mentions at every turn.
	PingQuiet Duration `toml:"ping_quiet"`
	// ResumeWindow: at start, the messages of tables changed this recently
	// are refreshed (a stop may have come between a move and its message).
	ResumeWindow Duration `toml:"resume_window"`

	// DiscordURL (from STOLIK_TEST_DISCORD_URL only) is a fake Discord's
	// base URL for tests; empty means the real Discord.
	DiscordURL string `toml:"-"`
}

// Duration is a time.Duration written as text in TOML ("20s", "1m").
type Duration struct{ time.Duration }

// UnmarshalText parses a duration such as "20s".
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return err
	}
	d.Duration = v
	return nil
}

// MarshalText prints the duration.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// Defaults returns the configuration used for keys the file leaves out.
func Defaults() Config {
	return Config{
		Database:        "stolik.db",
		DefaultLang:     "en",
		LogLevel:        "info",
		LogFormat:       "text",
		ShutdownTimeout: Duration{20 * time.Second},
		AIBot:           "heuristic",
		TableCache:      DefaultTableCache,
		PublishInterval: Duration{time.Second},
		PingQuiet:       Duration{time.Minute},
		ResumeWindow:    Duration{15 * time.Minute},
	}
}

// DefaultTableCache is the default of table_cache.
const DefaultTableCache = 1024

// ErrNoToken is returned by Validate when no bot token is configured.
var ErrNoToken = errors.New(`no Discord bot token: set the DISCORD_TOKEN environment variable or "token" in the configuration file.
To get one: open the Discord Developer Portal (https://discord.com/developers/applications),
choose your application (or create one), go to "Bot", press "Reset Token" and copy the token.
Invite the bot with the "bot" and "applications.commands" scopes`)

// ConfigError is a configuration value that cannot be used.
type ConfigError struct {
	Key string
	Msg string
}

func (e *ConfigError) Error() string { return "config: " + e.Key + ": " + e.Msg }

// Load reads the configuration file at path (a missing file is fine when
// optional is true: the defaults and the environment are used), applies the
// environment overrides from getenv (os.Getenv when nil) and validates the
// result.
func Load(path string, optional bool, getenv func(string) string) (Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	cfg := Defaults()
	if path != "" {
		md, err := toml.DecodeFile(path, &cfg)
		switch {
		case errors.Is(err, fs.ErrNotExist) && optional:
		case err != nil:
			return Config{}, fmt.Errorf("config: reading %s: %w", path, err)
		default:
			if und := md.Undecoded(); len(und) > 0 {
				keys := make([]string, len(und))
				for i, k := range und {
					keys[i] = k.String()
				}
				return Config{}, &ConfigError{Key: strings.Join(keys, ", "), Msg: "unknown key in " + path}
			}
		}
	}
	if v := strings.TrimSpace(getenv(EnvToken)); v != "" {
		cfg.Token = v
	}
	if v := strings.TrimSpace(getenv(EnvDatabase)); v != "" {
		cfg.Database = v
	}
	cfg.DiscordURL = strings.TrimSpace(getenv(EnvDiscordURL))
	return cfg, cfg.Validate()
}

// Validate checks the configuration.
func (c Config) Validate() error {
	if strings.TrimSpace(c.Token) == "" {
		return ErrNoToken
	}
	if c.Database == "" {
		return &ConfigError{Key: "database", Msg: "must name a file"}
	}
	if c.GuildID != "" && strings.Trim(c.GuildID, "0123456789") != "" {
		return &ConfigError{Key: "guild_id", Msg: fmt.Sprintf("%q is not a Discord id (digits only)", c.GuildID)}
	}
	if c.DefaultLang != "" && locales.Normalize(c.DefaultLang) != c.DefaultLang {
		return &ConfigError{Key: "default_lang", Msg: fmt.Sprintf("%q is not one of %s", c.DefaultLang, strings.Join(locales.Languages(), ", "))}
	}
	if _, err := c.level(); err != nil {
		return err
	}
	if c.LogFormat != "" && c.LogFormat != "text" && c.LogFormat != "json" {
		return &ConfigError{Key: "log_format", Msg: fmt.Sprintf("%q is not text or json", c.LogFormat)}
	}
	if c.PublishInterval.Duration < 0 || c.PublishInterval.Duration > time.Minute {
		return &ConfigError{Key: "publish_interval", Msg: "must be between 0 and 1m"}
	}
	if c.PingQuiet.Duration < 0 {
		return &ConfigError{Key: "ping_quiet", Msg: "must not be negative"}
	}
	if c.TableCache < 0 {
		return &ConfigError{Key: "table_cache", Msg: "must not be negative"}
	}
	if c.DiscordURL != "" {
		if u, err := url.Parse(c.DiscordURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return &ConfigError{Key: EnvDiscordURL, Msg: fmt.Sprintf("%q is not an http(s) base URL", c.DiscordURL)}
		}
	}
	if c.ShutdownTimeout.Duration < 0 {
		return &ConfigError{Key: "shutdown_timeout", Msg: "must not be negative"}
	}
	return nil
}

func (c Config) level() (slog.Level, error) {
	var l slog.Level
	if c.LogLevel == "" {
		return slog.LevelInfo, nil
	}
	if err := l.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return 0, &ConfigError{Key: "log_level", Msg: fmt.Sprintf("%q is not debug, info, warn or error", c.LogLevel)}
	}
	return l, nil
}

// Logger builds the slog logger the configuration asks for, writing to w.
func (c Config) Logger(w io.Writer) *slog.Logger {
	lvl, _ := c.level()
	opts := &slog.HandlerOptions{Level: lvl}
	if c.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
