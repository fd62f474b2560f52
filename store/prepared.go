package store

import (
	"context"
	"database/sql"
	"sync"
)

// preparedDB is a pool whose queries are prepared once and kept: SQLite
// compiles a statement at every prepare (sqlite3_prepare_v2), which was
// half of the SQLite time of a table's reads (its meta, its deadlines) at
// every interaction (BENCHMARKS.md). database/sql prepares a kept *sql.Stmt
// again on each connection of the pool the first time it runs there, and
// SQLite compiles it again by itself after a schema change.
//
// At most maxPrepared queries are kept (the store's queries are a few
// dozen texts; one built with a varying number of parameters beyond that
// is prepared every time, as before).
type preparedDB struct {
	*sql.DB
	mu    sync.Mutex
	stmts map[string]*sql.Stmt
}

const maxPrepared = 128

func newPreparedDB(db *sql.DB) *preparedDB {
	return &preparedDB{DB: db, stmts: map[string]*sql.Stmt{}}
}

// stmt is q prepared, or nil when it cannot be kept (the caller then runs
// q unprepared, which reports q's own error, if any).
func (p *preparedDB) stmt(ctx context.Context, q string) *sql.Stmt {
	p.mu.Lock()
	defer p.mu.Unlock()
	if st, ok := p.stmts[q]; ok {
		return st
	}
	if len(p.stmts) >= maxPrepared {
		return nil
	}
	st, err := p.DB.PrepareContext(ctx, q)
	if err != nil {
		return nil
	}
	p.stmts[q] = st
	return st
}

// QueryContext is sql.DB's, with q prepared once.
func (p *preparedDB) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if st := p.stmt(ctx, q); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return p.DB.QueryContext(ctx, q, args...)
}

// QueryRowContext is sql.DB's, with q prepared once.
func (p *preparedDB) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	if st := p.stmt(ctx, q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return p.DB.QueryRowContext(ctx, q, args...)
}

// Close closes the kept statements, then the pool.
func (p *preparedDB) Close() error {
	p.mu.Lock()
	for q, st := range p.stmts {
		_ = st.Close()
		delete(p.stmts, q)
	}
	p.mu.Unlock()
	return p.DB.Close()
}
