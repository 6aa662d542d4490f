package admit

import (
	"fmt"
	"net"
	"time"

	"gridlag/internal/ratelog"
)

// Refusal is why a front end turns a connection away; the zero Refusal
// lets it in. Kind names the cap for the log's summaries and the
// counters, a word with no address or number in it ("conn_full"); Text
// says it to the peer ("too many connections from your address (16):
// close one and try again").
type Refusal struct{ Kind, Text string }

// Refused reports whether r turns the connection away.
func (r Refusal) Refused() bool { return r.Kind != "" }

// writeGrace bounds the write of a refusal: a new socket's buffer is
// empty, so the write does not block, but a peer may have closed its
// window already.
const writeGrace = time.Second

// Refuse turns the new connection c away for r: it logs msg through warn
// (summarised per address, see Key, and kind), with the peer's address
// and the reason, writes say to c (the front end's own words for it: a
// protocol Error, a line before the SSH banner; nil for none), and closes
// c.
func Refuse(warn *ratelog.Log, msg string, c net.Conn, r Refusal, say []byte) {
	a := c.RemoteAddr()
	warn.Warn("refused "+Key(a)+" "+r.Kind, msg, "remote", Host(a), "reason", r.Text)
	if len(say) > 0 {
		c.SetWriteDeadline(time.Now().Add(writeGrace))
		c.Write(say)
	}
	c.Close()
}

// Words say a pool's refusals: for each verdict but Admitted, its kind and
// its sentence, whose %d is the number the verdict is about: the places
// taken in all (PoolFull), or by the address (AddrFull, Reserved).
type Words map[Verdict]Refusal

// Refusal checks key against p and says why it may not take one more
// place, in w's words; the zero Refusal admits it.
func (p *Pool) Refusal(key string, w Words) Refusal {
	n := p.Held(key)
	switch v := p.Check(key); v {
	case Admitted:
		return Refusal{}
	case PoolFull:
		n = p.Used()
		fallthrough
	default:
		return Refusal{Kind: w[v].Kind, Text: fmt.Sprintf(w[v].Text, n)}
	}
}
