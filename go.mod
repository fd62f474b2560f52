module github.com/stolik-bot/stolik

go 1.26.8

require (
	github.com/BurntSushi/toml v1.6.0 // indirect
	github.com/bwmarrin/discordgo v0.29.0 // indirect
	github.com/gorilla/websocket v1.4.2 // indirect
	github.com/mattn/go-sqlite3 v1.14.53 // indirect
	github.com/nicksnyder/go-i18n/v2 v2.7.0 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	golang.org/x/crypto v0.0.0-20210421170649-83a5a9bb288b // indirect
	golang.org/x/sys v0.0.0-20201119102817-f84b799fce68 // indirect
	golang.org/x/text v0.43.0 // indirect
)
