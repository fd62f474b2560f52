package sqlite

import (
	"context"
	"database/sql"
	"sync"
)

// preparedDB is a pool whose queries are prepared once and kept: SQLite
// compiles a statement at every prepare (sqlite3_prepare_v2), which was
// half of the SQLite time of a table's reads (its meta, its deadlines) at
// every interaction (docs/benchmarks-history.md). database/sql prepares a kept *sql.Stmt
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
	// pending are queries met in a transaction, to be prepared before the
	// next one begins: preparing takes a connection of the pool, and the
	// writer's pool has one, which the transaction holds.
	pending map[string]bool
}

const maxPrepared = 128

func newPreparedDB(db *sql.DB) *preparedDB {
	return &preparedDB{DB: db, stmts: map[string]*sql.Stmt{}, pending: map[string]bool{}}
}

// stmt is q prepared, or nil when it cannot be kept (the caller then runs
// q unprepared, which reports q's own error, if any). The lock is not held
// while preparing, which waits for a connection: a transaction holding the
// writer's one connection may be waiting for the lock (inTx).
func (p *preparedDB) stmt(ctx context.Context, q string) *sql.Stmt {
	p.mu.Lock()
	st, ok := p.stmts[q]
	full := len(p.stmts) >= maxPrepared
	p.mu.Unlock()
	if ok {
		return st
	}
	if full {
		return nil
	}
	st, err := p.DB.PrepareContext(ctx, q)
	if err != nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if kept, ok := p.stmts[q]; ok { // prepared meanwhile by another
		_ = st.Close()
		return kept
	}
	if len(p.stmts) >= maxPrepared {
		_ = st.Close()
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

// stmtTx is a transaction whose queries are its pool's prepared statements
// (database/sql reuses a statement already prepared on the transaction's
// connection); a query not yet prepared runs as it is, and is prepared
// before the pool's next transaction begins.
type stmtTx struct {
	*sql.Tx
	p *preparedDB
}

// begin starts a transaction on p, after preparing the queries met in
// transactions before.
func (p *preparedDB) begin(ctx context.Context) (stmtTx, error) {
	p.preparePending(ctx)
	tx, err := p.DB.BeginTx(ctx, nil)
	return stmtTx{Tx: tx, p: p}, err
}

// preparePending prepares the queries met in transactions (a query that
// fails to prepare is dropped: it runs unprepared, reporting its error).
func (p *preparedDB) preparePending(ctx context.Context) {
	p.mu.Lock()
	if len(p.pending) == 0 {
		p.mu.Unlock()
		return
	}
	qs := make([]string, 0, len(p.pending))
	for q := range p.pending {
		qs = append(qs, q)
	}
	clear(p.pending)
	p.mu.Unlock()
	for _, q := range qs {
		p.stmt(ctx, q)
	}
}

// inTx is q's kept statement for a transaction, or nil: then q is noted
// to be prepared before the next transaction.
func (p *preparedDB) inTx(q string) *sql.Stmt {
	p.mu.Lock()
	defer p.mu.Unlock()
	if st, ok := p.stmts[q]; ok {
		return st
	}
	if len(p.stmts)+len(p.pending) < maxPrepared {
		p.pending[q] = true
	}
	return nil
}

// ExecContext is sql.Tx's, with q prepared once.
func (t stmtTx) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if st := t.p.inTx(q); st != nil {
		return t.Tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return t.Tx.ExecContext(ctx, q, args...)
}

// QueryContext is sql.Tx's, with q prepared once.
func (t stmtTx) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if st := t.p.inTx(q); st != nil {
		return t.Tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	}
	return t.Tx.QueryContext(ctx, q, args...)
}

// QueryRowContext is sql.Tx's, with q prepared once.
func (t stmtTx) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	if st := t.p.inTx(q); st != nil {
		return t.Tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return t.Tx.QueryRowContext(ctx, q, args...)
}
