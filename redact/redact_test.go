package redact

import (
	"bytes"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	const tok = "MTA5ODc2NTQzMjEwOTg3NjU0.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB"
	for _, c := range []struct{ in, want string }{
		{"open postgres://stolik:S3cr3t!@db:5432/stolik?sslmode=disable: refused", "open postgres://stolik:…@db:5432/stolik?sslmode=disable: refused"},
		{"host=db user=u password=hunter2 dbname=x", "host=db user=u password=… dbname=x"},
		{`Patch "https://discord.com/api/v9/webhooks/1300000000000000001/aW50ZXJhY3Rpb246MTU3Njo/messages/@original": EOF`, `Patch "https://discord.com/api/v9/webhooks/1300000000000000001/…/messages/@original": EOF`},
		{"POST /interactions/1576517038627618816/aW50ZXJhY3Rpb246MTU3NjUxNzAz/callback", "POST /interactions/1576517038627618816/…/callback"},
		{"reading " + tok + ": no such file", "reading …: no such file"},
		{"Ala plays 7 at https://example.com/x", "Ala plays 7 at https://example.com/x"},
		{"a table: ab12cd34, move 7", "a table: ab12cd34, move 7"},
	} {
		if got := String(c.in); got != c.want {
			t.Errorf("String(%q)\n = %q\nwant %q", c.in, got, c.want)
		}
	}
	if got := String("token test-token-123 in a line", "test-token-123"); strings.Contains(got, "test-token-123") {
		t.Errorf("a named secret stays: %q", got)
	}
}

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b, "planted-secret")
	n, err := w.Write([]byte("err=planted-secret url=postgres://u:pw@h/db\n"))
	if err != nil || n != len("err=planted-secret url=postgres://u:pw@h/db\n") {
		t.Fatalf("Write: %d, %v", n, err)
	}
	if got := b.String(); strings.Contains(got, "planted-secret") || strings.Contains(got, ":pw@") {
		t.Errorf("written: %q", got)
	}
}
