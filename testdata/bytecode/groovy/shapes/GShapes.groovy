package shapes

// Classes as groovyc (2.4) writes them. A dynamic this(...) call compiles
// to a switch over the candidate constructors, each arm an invokespecial
// on the uninitialized this; closures, GStrings, switch over strings and
// ranges, properties.
class GPoint {
    int x
    int y

    GPoint(int x, int y) {
        this.x = x
        this.y = y
    }

    GPoint(int v) {
        this(v, v * 2)
    }

    GPoint(Object o) {
        this(o instanceof Number ? ((Number) o).intValue() : o.toString().length(), 1)
    }

    GPoint(String s, boolean twice) {
        this(twice ? s + s : s)
    }

    String toString() { "($x,$y)" }
}

class GShapes {
    static String kind(Object v) {
        switch (v) {
            case null: return 'null'
            case 0..9: return 'digit'
            case ~/a.*/: return 'a-word'
            case String: return 'string'
            default: return 'other'
        }
    }

    static int risky(int i) {
        if (i % 3 == 0) {
            throw new IllegalStateException("bad $i")
        }
        i
    }

    static void main(String[] args) {
        def out = []
        out << new GPoint(3).toString()
        out << new GPoint('abcd').toString()
        out << new GPoint('xy', true).toString()
        out << new GPoint(7 as Object).toString()
        out << [null, 4, 'apple', 'pear', 12].collect { kind(it) }.join(',')
        int caught = 0
        (1..7).each { i ->
            try {
                risky(i)
            } catch (IllegalStateException e) {
                caught++
            }
        }
        out << "caught=$caught"
        println "groovy: ${out.join(' ')}"
    }
}
