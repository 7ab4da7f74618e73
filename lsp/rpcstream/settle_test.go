package rpcstream

import (
	"context"
	"io"
	"testing"
	"time"
)

// TestSettleWaitsForTheMessageBeingReceived: Settle reports a message
// whose header has arrived as on its way until the read loop, having
// handed it over, comes back for the next one; and input the stream has
// not read yet (InputWaiting) as on its way too.
func TestSettleWaitsForTheMessageBeingReceived(t *testing.T) {
	r, w := io.Pipe()
	waiting := 0
	s := New(&pipe{in: r}, Options{InputWaiting: func() int { return waiting }})
	ctx := context.Background()
	if !s.Settle(ctx, time.Millisecond) {
		t.Fatal("an idle stream is not settled")
	}

	read := make(chan error, 1)
	next := func() { go func() { _, _, err := s.Read(ctx); read <- err }() }
	next()
	body := `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{}}`
	full := frame(body)
	if _, err := io.WriteString(w, full[:len(full)-10]); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); !s.receiving.Load(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the header of a message never counted as received")
		}
	}
	if s.Settle(ctx, 20*time.Millisecond) {
		t.Error("settled while a message was half received")
	}
	settled := make(chan bool, 1)
	go func() { settled <- s.Settle(ctx, time.Minute) }()
	if _, err := io.WriteString(w, full[len(full)-10:]); err != nil {
		t.Fatal(err)
	}
	if err := <-read; err != nil {
		t.Fatal(err)
	}
	select {
	case <-settled:
		t.Fatal("settled before the read loop came back for the next message")
	case <-time.After(20 * time.Millisecond):
	}
	next() // the message has been handled: the loop is back
	if !<-settled {
		t.Error("not settled once the message was handed over")
	}

	waiting = 1
	if s.Settle(ctx, 5*time.Millisecond) {
		t.Error("settled while the input held unread bytes")
	}
	w.Close()
	<-read
}
