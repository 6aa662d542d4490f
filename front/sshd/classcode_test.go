package sshd

import "testing"

// TestClassLogin: a login with a class code's shape is a code, with the
// name after a + if any; any other login is a name.
func TestClassLogin(t *testing.T) {
	for _, c := range []struct {
		user, code, name string
		ok               bool
	}{
		{"3b-K7Q2XM", "3b-K7Q2XM", "", true},
		{"3b-k7q2xm+ada", "3b-k7q2xm", "ada", true},
		{"class-23456Z+grace hopper", "class-23456Z", "grace hopper", true},
		{"ada", "", "", false},
		{"student", "", "", false},
		{"jean-luc", "", "", false},    // a name with a dash
		{"3b-K7Q2X0", "", "", false},   // 0 is no code's
		{"3b-K7Q2XMM", "", "", false},  // seven characters
		{"-K7Q2XM", "", "", false},     // no prefix
		{"3b-K7Q2XM@x", "", "", false}, // not a code's characters
	} {
		code, name, ok := classLogin(c.user)
		if code != c.code || name != c.name || ok != c.ok {
			t.Errorf("classLogin(%q) = %q, %q, %v; want %q, %q, %v", c.user, code, name, ok, c.code, c.name, c.ok)
		}
	}
}
