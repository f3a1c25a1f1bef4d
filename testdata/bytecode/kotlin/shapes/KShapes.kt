package shapes

// Constructors as kotlinc (1.3) writes them: init blocks, secondary
// constructors delegating with computed arguments, default arguments (a
// synthetic constructor with a DefaultConstructorMarker), super calls
// whose arguments hold inlined lambdas, when and try expressions.

open class Base(val n: Int) {
    open fun describe(): String = "base $n"
}

class Derived(x: Int, label: String = "d") : Base(run { if (x > 3) x * 2 else x + 1 }) {
    val text: String
    init {
        text = label + n
    }

    constructor(s: String) : this(when (s.length) { 0 -> -1; 1, 2 -> 2; else -> s.length }, s)

    constructor(a: Int, b: Int) : this(try { a / b } catch (e: ArithmeticException) { -7 })

    override fun describe(): String = "derived $text"
}

data class Point(val x: Int, val y: Int) {
    operator fun plus(o: Point) = Point(x + o.x, y + o.y)
}

object Registry {
    private val names = mutableListOf<String>()
    fun add(name: String): Int {
        names.add(name)
        return names.size
    }
}

inline fun <T> measured(block: () -> T): T {
    try {
        return block()
    } finally {
        Registry.add("measured")
    }
}

fun classify(v: Any?): String = when (v) {
    null -> "null"
    is Int -> if (v < 0) "negative" else "int"
    is String -> "string:" + v.length
    else -> "other"
}

fun risky(i: Int): Int {
    if (i % 3 == 0) throw IllegalStateException("bad $i")
    return i
}

fun main() {
    val out = StringBuilder()
    out.append(Derived(5).describe()).append(' ')
    out.append(Derived("hello").describe()).append(' ')
    out.append(Derived(6, 0).describe()).append(' ')
    out.append(Derived(2, "x").describe()).append(' ')
    out.append(Point(1, 2) + Point(3, 4)).append(' ')
    out.append(measured { listOf(3, 1, 2).sorted().joinToString(",") }).append(' ')
    out.append(listOf(null, -1, 4, "abc", 2.5).map(::classify)).append(' ')
    var caught = 0
    for (i in 1..7) {
        try {
            risky(i)
        } catch (e: IllegalStateException) {
            caught++
        }
    }
    out.append("caught=").append(caught)
    println("kotlin: $out")
}
