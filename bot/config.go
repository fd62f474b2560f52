package bot

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
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
	}
}

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
