package loadgen

import (
	"fmt"
	"net/netip"
	"strings"
)

// maxLocalAddrs bounds a range of source addresses: more than any run
// needs, few enough to list.
const maxLocalAddrs = 1 << 16

// ParseAddrs reads source addresses for Options.LocalAddrs: a comma-separated
// list of addresses and ranges FIRST-LAST (e.g. 127.0.0.2-127.0.0.9), both
// ends included, of the same family.
func ParseAddrs(s string) ([]netip.Addr, error) {
	var addrs []netip.Addr
	for _, part := range strings.Split(s, ",") {
		first, last, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := netip.ParseAddr(first)
		if err != nil {
			return nil, fmt.Errorf("%q is not an IP address", first)
		}
		b := a
		if isRange {
			if b, err = netip.ParseAddr(last); err != nil {
				return nil, fmt.Errorf("%q is not an IP address", last)
			}
			if a.Is4() != b.Is4() || b.Less(a) {
				return nil, fmt.Errorf("%s is not a range: want FIRST-LAST, of one family, in order", part)
			}
		}
		for {
			if len(addrs) == maxLocalAddrs {
				return nil, fmt.Errorf("more than %d addresses", maxLocalAddrs)
			}
			addrs = append(addrs, a)
			if a == b {
				break
			}
			a = a.Next()
		}
	}
	return addrs, nil
}
