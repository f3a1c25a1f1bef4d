package cf;

import java.util.Comparator;
import java.util.Iterator;

/** Inner, static nested, local and anonymous classes, including captures and EnclosingMethod. */
public class InnerClasses {
    private final String prefix;

    public InnerClasses(String prefix) {
        this.prefix = prefix;
    }

    public class Member {
        final int n;

        public Member(int n) {
            this.n = n;
        }

        public String show() {
            return prefix + n;
        }

        public class MemberOfMember {
            public String show() {
                return prefix + n + "!";
            }
        }
    }

    public static class StaticNested {
        public int twice(int x) {
            return 2 * x;
        }
    }

    public abstract static class Base {
        protected final int seed;

        protected Base(int seed) {
            this.seed = seed;
        }

        public abstract int next();
    }

    public Iterator<Integer> countdown(int from) {
        final int stop = 0;
        class Local implements Iterator<Integer> {
            private int cur = from;

            @Override
            public boolean hasNext() {
                return cur > stop;
            }

            @Override
            public Integer next() {
                return cur-- + prefix.length();
            }
        }
        return new Local();
    }

    public static Comparator<String> byLength() {
        return new Comparator<String>() {
            @Override
            public int compare(String a, String b) {
                return Integer.compare(a.length(), b.length());
            }
        };
    }

    public Base generator(int start, long step) {
        return new Base(start) {
            private long cur = seed;

            @Override
            public int next() {
                cur += step + prefix.length();
                return (int) cur;
            }
        };
    }

    public static Runnable inStaticInit;

    static {
        class StaticLocal implements Runnable {
            @Override
            public void run() {
                System.identityHashCode(this);
            }
        }
        inStaticInit = new StaticLocal();
    }

    public String all() {
        Member m = new Member(3);
        Member.MemberOfMember mm = m.new MemberOfMember();
        return m.show() + mm.show() + new StaticNested().twice(2) + generator(1, 2).next();
    }
}
