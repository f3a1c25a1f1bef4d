package scan

// activityBases are the framework and library Activity classes an app
// Activity can extend without the class being among the inputs: the SDK's
// subclasses of android.app.Activity and the support/androidx bases. A
// chain that reaches one of these is an Activity even when android.jar is
// not on --classpath.
var activityBases = map[string]bool{
	"android/app/Activity":                             true,
	"android/app/ActivityGroup":                        true,
	"android/app/AliasActivity":                        true,
	"android/app/ExpandableListActivity":               true,
	"android/app/LauncherActivity":                     true,
	"android/app/ListActivity":                         true,
	"android/app/NativeActivity":                       true,
	"android/app/TabActivity":                          true,
	"android/preference/PreferenceActivity":            true,
	"android/accounts/AccountAuthenticatorActivity":    true,
	"android/support/v4/app/FragmentActivity":          true,
	"android/support/v4/app/SupportActivity":           true,
	"android/support/v4/app/BaseFragmentActivityApi14": true,
	"android/support/v4/app/BaseFragmentActivityApi16": true,
	"android/support/v7/app/AppCompatActivity":         true,
	"android/support/v7/app/ActionBarActivity":         true,
	"androidx/activity/ComponentActivity":              true,
	"androidx/core/app/ComponentActivity":              true,
	"androidx/fragment/app/FragmentActivity":           true,
	"androidx/appcompat/app/AppCompatActivity":         true,
}

// hierarchy knows the superclass of every class seen: inputs (which may be
// rewritten) and classpath jars (read only).
type hierarchy struct {
	super   map[string]string
	inInput map[string]*Class
	orig    func(string) string
}

// isActivity walks the superclass chain of name.
func (h *hierarchy) isActivity(name string) bool {
	for seen := 0; name != "" && seen < 1000; seen++ {
		if activityBases[name] || activityBases[h.orig(name)] {
			return true
		}
		next, ok := h.super[name]
		if !ok {
			return false
		}
		name = next
	}
	return false
}

// FocusTargets returns the input classes that get the focus call, so that
// every focus change of every Activity reports exactly once:
//   - the topmost class of each Activity chain that is in the inputs and not
//     blocked: overrides below it reach it through super.onWindowFocusChanged;
//   - every Activity class in the inputs whose own onWindowFocusChanged never
//     calls super: calls on it (and on subclasses that call super into it)
//     stop there and would not reach the top.
func (h *hierarchy) FocusTargets() map[string]bool {
	targets := map[string]bool{}
	for name, ci := range h.inInput {
		if ci.Versioned || ci.Access&0x0200 != 0 || !h.isActivity(name) {
			continue
		}
		if ci.Blocked == 0 && ci.FocusCode && !ci.FocusSuper {
			targets[name] = true
		}
		top := ""
		for cur := name; ; {
			c, ok := h.inInput[cur]
			if !ok {
				break
			}
			if c.Blocked == 0 {
				top = cur
			}
			cur = c.Super
		}
		if top != "" {
			targets[top] = true
		}
	}
	return targets
}
