package bot

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"github.com/bwmarrin/discordgo"
	"github.com/mattn/go-sqlite3"

	"github.com/stolik-bot/stolik/bot/logthrottle"
	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/ai"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/redact"
)

// Environment variables that override the configuration file.
const (
	EnvToken    = "DISCORD_TOKEN"
	EnvDatabase = "STOLIK_DB"
	// EnvShard and EnvShards override the keys shard and shards (one
	// configuration file for every process of a sharded bot, each started
	// with its own STOLIK_SHARD).
	EnvShard  = "STOLIK_SHARD"
	EnvShards = "STOLIK_SHARDS"
	// EnvHTTPListen and EnvPublicKey override the keys http_listen and
	// public_key (the HTTP interactions endpoint).
	EnvHTTPListen = "STOLIK_HTTP_LISTEN"
	EnvPublicKey  = "STOLIK_PUBLIC_KEY"
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
	// Database is the path of the SQLite file, or a postgres:// URL of a
	// PostgreSQL database (package store/open).
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
	// StandInAI is the level of the AI player that stands in for an
	// absent player (engine/ai: easy, normal, hard).
	StandInAI string `toml:"standin_ai"`
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
	// Pictures attaches a picture of the table to its public message and
	// of the hand to a player's hand; without them both are in words only.
	Pictures bool `toml:"pictures"`
	// Shard and Shards split the gateway between processes (Discord's
	// sharding): this process holds shard Shard of Shards, that is the
	// guilds with (guild_id >> 22) % Shards == Shard, and direct messages
	// when Shard is 0. Every process must use the same database. Shards 1
	// (the default) is one process holding everything.
	Shard  int `toml:"shard"`
	Shards int `toml:"shards"`
	// RESTRate is how many requests a second the bot's processes make
	// together with the bot token on the routes Discord limits globally
	// (every route but the interaction routes): Discord allows a bot 50.
	// Each of Shards processes takes an equal share. 0 sets no limit (a
	// REST proxy in front of the processes keeps it).
	RESTRate int `toml:"rest_rate"`
	// HTTPListen is the address (host:port, or :port) of the HTTP
	// interactions endpoint (InteractionsHandler); empty: none, the
	// interactions come over the gateway. PublicKey is the application's
	// Ed25519 public key in hex (Developer Portal, General Information),
	// which checks the requests' signatures; required with HTTPListen.
	HTTPListen string `toml:"http_listen"`
	PublicKey  string `toml:"public_key"`

	// DiscordURL (from STOLIK_TEST_DISCORD_URL only) is a fake Discord's
	// base URL for tests; empty means the real Discord.
	DiscordURL string `toml:"-"`
}

// DiscordGlobalRate is Discord's global limit: the requests a second a bot
// token may make outside the interaction routes.
const DiscordGlobalRate = 50

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
		StandInAI:       ai.Strongest,
		TableCache:      DefaultTableCache,
		PublishInterval: Duration{time.Second},
		PingQuiet:       Duration{time.Minute},
		ResumeWindow:    Duration{15 * time.Minute},
		Pictures:        true,
		Shards:          1,
		RESTRate:        DiscordGlobalRate,
	}
}

// DefaultTableCache is the default of table_cache.
const DefaultTableCache = 1024

// ErrNoToken is returned by Validate when no bot token is configured.
var ErrNoToken = errors.New(`no Discord bot token: set the DISCORD_TOKEN environment variable or "token" in the configuration file.
To get one: open the Discord Developer Portal (https://discord.com/developers/applications),
choose your application (or create one), go to "Bot", press "Reset Token" and copy the token.
Then invite the bot to your server with the "bot" and "applications.commands" scopes: README.md, "Running it on Discord", gives the invite URL and the permissions.`)

// ConfigError is a configuration value that cannot be used. It names the
// key and what the key takes, never the value given: a token pasted into
// the wrong key, or a key's value copied from a secret, would otherwise be
// printed (and logged by whatever collects the program's output).
type ConfigError struct {
	Key string // the key, or the environment variable
	Msg string // what is wrong, without the value
}

func (e *ConfigError) Error() string {
	return "config: " + e.Key + ": " + e.Msg + " (the value given is not shown)"
}

// ConfigSyntaxError says that the configuration file is not valid TOML,
// and where. It quotes nothing of the file: the line may hold the token
// (an unquoted one is the usual mistake).
type ConfigSyntaxError struct {
	Path         string
	Line, Column int // from 1; 0 when unknown
}

func (e *ConfigSyntaxError) Error() string {
	where := ""
	if e.Line > 0 {
		where = fmt.Sprintf(" line %d, column %d:", e.Line, e.Column)
	}
	return "config: " + e.Path + ":" + where + " not valid TOML (text values must be in quotes, one key = value per line); the line is not shown"
}

// configKey is one key of the configuration file: what it takes, in words
// (for errors), and the field it sets.
type configKey struct {
	name  string
	takes string
	field func(*Config) any
}

// langList is the languages, for errors.
func langList() string { return strings.Join(locales.Languages(), ", ") }

// aiBots are the AI players every game has (engine/ai: its kinds and
// levels).
var aiBots = append(ai.Kinds(), ai.Levels()...)

// configKeys are the keys of the file, in the order of config.example.toml.
var configKeys = []configKey{
	{"token", "the bot token alone, in quotes (no spaces, no \"Bot \" in front)", func(c *Config) any { return &c.Token }},
	{"database", "the path of a SQLite file or a postgres:// URL, in quotes", func(c *Config) any { return &c.Database }},
	{"guild_id", "a server id in quotes (digits only), or \"\"", func(c *Config) any { return &c.GuildID }},
	{"default_lang", "one of " + langList(), func(c *Config) any { return &c.DefaultLang }},
	{"log_level", "debug, info, warn or error", func(c *Config) any { return &c.LogLevel }},
	{"log_format", "text or json", func(c *Config) any { return &c.LogFormat }},
	{"shutdown_timeout", "a duration in quotes, not negative, such as \"20s\"", func(c *Config) any { return &c.ShutdownTimeout }},
	{"ai_bot", strings.Join(aiBots, " or "), func(c *Config) any { return &c.AIBot }},
	{"standin_ai", strings.Join(ai.Levels(), " or "), func(c *Config) any { return &c.StandInAI }},
	{"table_cache", "a whole number, 0 or more", func(c *Config) any { return &c.TableCache }},
	{"publish_interval", "a duration in quotes from \"0s\" to \"1m\"", func(c *Config) any { return &c.PublishInterval }},
	{"ping_quiet", "a duration in quotes, not negative, such as \"1m\"", func(c *Config) any { return &c.PingQuiet }},
	{"resume_window", "a duration in quotes, not negative, such as \"15m\"", func(c *Config) any { return &c.ResumeWindow }},
	{"pictures", "true or false", func(c *Config) any { return &c.Pictures }},
	{"shard", "a whole number from 0 to shards - 1", func(c *Config) any { return &c.Shard }},
	{"shards", "a whole number, 1 or more (1: one process holds every guild)", func(c *Config) any { return &c.Shards }},
	{"rest_rate", "a whole number, 0 or more (Discord allows a bot 50 a second; 0: no limit)", func(c *Config) any { return &c.RESTRate }},
	{"http_listen", "an address to listen on in quotes, such as \":8080\" or \"127.0.0.1:8080\", or \"\"", func(c *Config) any { return &c.HTTPListen }},
	{"public_key", "the application's public key in quotes: 64 hexadecimal digits (required with http_listen)", func(c *Config) any { return &c.PublicKey }},
}

// discordURLTakes says what STOLIK_TEST_DISCORD_URL takes.
const discordURLTakes = "must be an http(s) base URL such as http://127.0.0.1:PORT"

// badKey is the error of a key whose value is not what it takes.
func badKey(name string) *ConfigError {
	for _, k := range configKeys {
		if k.name == name {
			return &ConfigError{Key: name, Msg: "must be " + k.takes}
		}
	}
	return &ConfigError{Key: name, Msg: "is not valid"}
}

// Load reads the configuration file at path (a missing file is fine when
// optional is true: the defaults and the environment are used), applies the
// environment overrides from getenv (os.Getenv when nil) and validates the
// result. No error quotes a value or the file (see ConfigError).
func Load(path string, optional bool, getenv func(string) string) (Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	cfg := Defaults()
	if path != "" {
		text, err := os.ReadFile(path)
		switch {
		case errors.Is(err, fs.ErrNotExist) && optional:
		case err != nil:
			return Config{}, fmt.Errorf("config: reading %s: %w", path, err)
		default:
			if err := decodeConfig(path, string(text), &cfg); err != nil {
				return Config{}, err
			}
		}
	}
	fromEnv := map[string]string{}
	if v := strings.TrimSpace(getenv(EnvToken)); v != "" {
		cfg.Token, fromEnv["token"] = v, EnvToken
	}
	if v := strings.TrimSpace(getenv(EnvDatabase)); v != "" {
		cfg.Database, fromEnv["database"] = v, EnvDatabase
	}
	if v := strings.TrimSpace(getenv(EnvHTTPListen)); v != "" {
		cfg.HTTPListen, fromEnv["http_listen"] = v, EnvHTTPListen
	}
	if v := strings.TrimSpace(getenv(EnvPublicKey)); v != "" {
		cfg.PublicKey, fromEnv["public_key"] = v, EnvPublicKey
	}
	for _, e := range []struct {
		env, key string
		field    *int
	}{{EnvShard, "shard", &cfg.Shard}, {EnvShards, "shards", &cfg.Shards}} {
		v := strings.TrimSpace(getenv(e.env))
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			k := badKey(e.key)
			return cfg, &ConfigError{Key: e.env, Msg: k.Msg}
		}
		*e.field, fromEnv[e.key] = n, e.env
	}
	cfg.DiscordURL = strings.TrimSpace(getenv(EnvDiscordURL))
	err := cfg.Validate()
	var ce *ConfigError
	if errors.As(err, &ce) && fromEnv[ce.Key] != "" {
		err = &ConfigError{Key: fromEnv[ce.Key], Msg: ce.Msg}
	}
	return cfg, err
}

// decodeConfig reads the TOML text of the file at path into cfg, key by key,
// so that an error names its key and nothing of the value (the TOML
// decoder's own errors quote values and lines).
func decodeConfig(path, text string, cfg *Config) error {
	var raw map[string]toml.Primitive
	md, err := toml.Decode(text, &raw)
	if err != nil {
		se := &ConfigSyntaxError{Path: path}
		var pe toml.ParseError
		if errors.As(err, &pe) {
			se.Line, se.Column = pe.Position.Line, column(text, pe.Position.Start)
		}
		return se
	}
	var unknown []string
	hidden := 0
	for name, prim := range raw {
		i := slices.IndexFunc(configKeys, func(k configKey) bool { return k.name == name })
		if i < 0 {
			if plainKey(name) {
				unknown = append(unknown, name)
			} else {
				hidden++
			}
			continue
		}
		if err := md.PrimitiveDecode(prim, configKeys[i].field(cfg)); err != nil {
			return badKey(name)
		}
	}
	if len(unknown) > 0 || hidden > 0 {
		slices.Sort(unknown)
		if hidden > 0 {
			unknown = append(unknown, fmt.Sprintf("%d not shown", hidden))
		}
		names := make([]string, len(configKeys))
		for i, k := range configKeys {
			names[i] = k.name
		}
		return &ConfigError{Key: strings.Join(unknown, ", "), Msg: "unknown key in " + path + "; the keys are " + strings.Join(names, ", ")}
	}
	return nil
}

// plainKey reports whether an unknown key may be named in an error: a
// short lower-case word, as a misspelt key is. Anything else could be a
// value written where a key goes.
func plainKey(s string) bool {
	if s == "" || len(s) > 24 {
		return false
	}
	return strings.Trim(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == ""
}

// column is the column (in characters, from 1) of byte offset off in text.
func column(text string, off int) int {
	if off < 0 || off > len(text) {
		return 0
	}
	start := strings.LastIndexByte(text[:off], '\n') + 1
	return utf8.RuneCountInString(text[start:off]) + 1
}

// Validate checks the configuration. Its errors name the key and what it
// takes, never the value.
func (c Config) Validate() error {
	if strings.TrimSpace(c.Token) == "" {
		return ErrNoToken
	}
	if strings.ContainsFunc(c.Token, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return badKey("token")
	}
	if c.Database == "" {
		return &ConfigError{Key: "database", Msg: "must name a SQLite file or a postgres:// URL"}
	}
	if c.GuildID != "" && strings.Trim(c.GuildID, "0123456789") != "" {
		return badKey("guild_id")
	}
	if c.DefaultLang != "" && locales.Normalize(c.DefaultLang) != c.DefaultLang {
		return badKey("default_lang")
	}
	if _, err := c.level(); err != nil {
		return err
	}
	if c.LogFormat != "" && c.LogFormat != "text" && c.LogFormat != "json" {
		return badKey("log_format")
	}
	if c.AIBot != "" && !slices.Contains(aiBots, c.AIBot) {
		return badKey("ai_bot")
	}
	if c.StandInAI != "" && !ai.IsLevel(c.StandInAI) {
		return badKey("standin_ai")
	}
	if c.PublishInterval.Duration < 0 || c.PublishInterval.Duration > time.Minute {
		return badKey("publish_interval")
	}
	if c.PingQuiet.Duration < 0 {
		return badKey("ping_quiet")
	}
	if c.ResumeWindow.Duration < 0 {
		return badKey("resume_window")
	}
	if c.TableCache < 0 {
		return badKey("table_cache")
	}
	if c.DiscordURL != "" {
		if u, err := url.Parse(c.DiscordURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return &ConfigError{Key: EnvDiscordURL, Msg: discordURLTakes}
		}
	}
	if c.ShutdownTimeout.Duration < 0 {
		return badKey("shutdown_timeout")
	}
	if c.Shards < 1 {
		return badKey("shards")
	}
	if c.RESTRate < 0 {
		return badKey("rest_rate")
	}
	if c.Shard < 0 || c.Shard >= c.Shards {
		return badKey("shard")
	}
	if c.HTTPListen != "" {
		if _, port, err := net.SplitHostPort(c.HTTPListen); err != nil || port == "" {
			return badKey("http_listen")
		}
		if c.PublicKey == "" {
			return &ConfigError{Key: "public_key", Msg: "must be set with http_listen: the application's public key (Developer Portal → your application → General Information), 64 hexadecimal digits"}
		}
	}
	if c.PublicKey != "" {
		if _, err := parsePublicKey(c.PublicKey); err != nil {
			return badKey("public_key")
		}
	}
	return nil
}

// ShardOf is the shard of a guild among shards, by Discord's formula
// ((guild_id >> 22) % shards); direct messages (no guild) and ids that
// are not snowflakes go to shard 0, as Discord sends DMs to shard 0.
func ShardOf(guildID string, shards int) int {
	if shards <= 1 || guildID == "" {
		return 0
	}
	id, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil {
		return 0
	}
	return int((id >> 22) % uint64(shards))
}

// OnShard reports whether this process holds guildID's events (see Shard).
func (c Config) OnShard(guildID string) bool {
	return ShardOf(guildID, max(c.Shards, 1)) == c.Shard
}

func (c Config) level() (slog.Level, error) {
	var l slog.Level
	if c.LogLevel == "" {
		return slog.LevelInfo, nil
	}
	if !slices.Contains([]string{"debug", "info", "warn", "error"}, strings.ToLower(c.LogLevel)) || l.UnmarshalText([]byte(c.LogLevel)) != nil {
		return 0, badKey("log_level")
	}
	return l, nil
}

// Logger builds the slog logger the configuration asks for, writing to w.
// Repeated warnings and errors of one kind go out at most once per
// logthrottle.DefaultInterval, with the count of those held back (see
// logKind).
func (c Config) Logger(w io.Writer) *slog.Logger {
	return c.loggerAt(w, time.Now)
}

// loggerAt is Logger on a clock.
func (c Config) loggerAt(w io.Writer, now func() time.Time) *slog.Logger {
	lvl, _ := c.level()
	opts := &slog.HandlerOptions{Level: lvl}
	// The log never holds the token, a database password or an
	// interaction's token, whatever error quotes them.
	w = redact.NewWriter(w, c.Token)
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if c.LogFormat == "json" {
		h = slog.NewJSONHandler(w, opts)
	}
	return slog.New(logthrottle.New(h, logthrottle.Options{Now: now, Kind: logKind}))
}

// logKind tells apart, for the log throttle, errors of one type that are
// different faults: SQLite's result codes (a full disk, a locked database),
// PostgreSQL's SQLSTATE codes and failed connections (postgresKind),
// Discord's HTTP status and error code, a game rule's code. A damaged table
// is a fault of its own: the bot reports each once (see damaged), and the
// second table found damaged must not be held back as a repeat of the
// first.
func logKind(err error) string {
	var ce *table.CorruptError
	if errors.As(err, &ce) {
		return "damaged table " + ce.ID
	}
	var se sqlite3.Error
	if errors.As(err, &se) {
		return fmt.Sprintf("sqlite %d/%d", se.Code, se.ExtendedCode)
	}
	if k := postgresKind(err); k != "" {
		return k
	}
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil {
		code := 0
		if re.Message != nil {
			code = re.Message.Code
		}
		return fmt.Sprintf("discord %d/%d", re.Response.StatusCode, code)
	}
	if code := engine.Code(err); code != "" {
		return "rule " + code
	}
	return ""
}
