module github.com/stolik-bot/stolik

go 1.26.8

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/bwmarrin/discordgo v0.29.0
	github.com/gorilla/websocket v1.4.2
	github.com/jackc/pgx/v5 v5.12.0
	github.com/klauspost/compress v1.20.4
	github.com/mattn/go-sqlite3 v1.14.53
	github.com/nicksnyder/go-i18n/v2 v2.7.0
	golang.org/x/image v0.48.0
	golang.org/x/text v0.44.0
)

require (
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/puddle/v2 v2.2.3 // indirect
	golang.org/x/crypto v0.59.0 // indirect
	golang.org/x/sync v0.25.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
)
