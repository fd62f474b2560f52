# syntax=docker/dockerfile:1
# Stolik: build with cgo (mattn/go-sqlite3 needs it), run as a non-root user
# with the database on a volume.
#
#   docker build -t stolik .
#   docker run -d --name stolik -e DISCORD_TOKEN=... -v stolik-data:/data stolik

# The Go of go.mod (1.26.8) or newer: a floating 1.26 tag may be older.
FROM golang:1.26.8-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ENV CGO_ENABLED=1
RUN go build -trimpath -ldflags="-s -w" -o /out/stolik ./cmd/stolik

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 stolik \
 && useradd --system --uid 10001 --gid stolik --home-dir /data --shell /usr/sbin/nologin stolik \
 && mkdir -p /data /etc/stolik \
 && chown stolik:stolik /data
COPY --from=build /out/stolik /usr/local/bin/stolik
COPY config.example.toml /etc/stolik/stolik.toml
ENV STOLIK_DB=/data/stolik.db
VOLUME ["/data"]
WORKDIR /data
USER stolik:stolik
ENTRYPOINT ["/usr/local/bin/stolik", "serve"]
CMD ["--config", "/etc/stolik/stolik.toml"]
