// Shapes Kotlin 2 writes into class files: inline and reified functions,
// value classes, a sealed hierarchy with when, $default synthetics,
// @JvmOverloads and @JvmStatic, companion objects, delegated properties,
// lambdas (invokedynamic by default, classes with -Xlambdas=class), and
// constructors with init blocks and default arguments.
package modern.kt

import kotlin.properties.Delegates
import kotlin.reflect.KProperty

@JvmInline
value class Meters(val value: Double) {
    operator fun plus(other: Meters) = Meters(value + other.value)
    fun describe(): String = if (value > 1000) "${value / 1000} km" else "$value m"
}

sealed interface Shape {
    data class Circle(val r: Double) : Shape
    data class Rect(val w: Double, val h: Double) : Shape
    data object Empty : Shape
    class Poly(vararg val points: Pair<Double, Double>) : Shape
}

fun area(s: Shape): Double = when (s) {
    is Shape.Circle -> Math.PI * s.r * s.r
    is Shape.Rect -> s.w * s.h
    Shape.Empty -> 0.0
    is Shape.Poly -> {
        var sum = 0.0
        val p = s.points
        for (i in p.indices) {
            val (x1, y1) = p[i]
            val (x2, y2) = p[(i + 1) % p.size]
            sum += x1 * y2 - x2 * y1
        }
        Math.abs(sum) / 2
    }
}

inline fun <reified T> countOf(items: List<Any>): Int = items.count { it is T }

inline fun timed(label: String, block: () -> Int): String {
    val v = block()
    return "$label=$v"
}

class Lazyish {
    val expensive: Int by lazy { (1..100).sum() }
    var observed: Int by Delegates.observable(0) { _, old, new -> changes += "$old->$new" }
    val changes = mutableListOf<String>()
    var upper: String by Upper()
}

class Upper {
    private var v = ""
    operator fun getValue(thisRef: Any?, property: KProperty<*>): String = v
    operator fun setValue(thisRef: Any?, property: KProperty<*>, value: String) {
        v = value.uppercase()
    }
}

class Greeter @JvmOverloads constructor(val name: String, val greeting: String = "Hello", val times: Int = 1) {
    init {
        require(times > 0) { "times must be positive" }
    }

    fun greet(punct: String = "!"): String = List(times) { "$greeting, $name$punct" }.joinToString(" ")

    companion object {
        @JvmStatic
        fun default(): Greeter = Greeter("world")

        const val VERSION = 2
    }
}

class Checked(val n: Int) {
    val half: Int

    init {
        if (n < 0) throw IllegalArgumentException("negative: $n")
        half = n / 2
    }

    constructor(s: String) : this(s.toIntOrNull() ?: -1)
}

object Registry {
    private val handlers = mutableMapOf<String, (Int) -> Int>()
    fun register(name: String, f: (Int) -> Int) {
        handlers[name] = f
    }

    fun run(name: String, v: Int): Int = handlers.getValue(name)(v)
}

fun shapesReport(): List<String> {
    val out = mutableListOf<String>()
    val shapes = listOf(Shape.Circle(1.0), Shape.Rect(2.0, 3.0), Shape.Empty, Shape.Poly(0.0 to 0.0, 4.0 to 0.0, 4.0 to 3.0))
    out += shapes.map { "%.3f".format(area(it)) }.joinToString(",")
    val mixed: List<Any> = listOf(1, "a", 2.0, "b", 3)
    out += timed("ints") { countOf<Int>(mixed) }
    out += timed("strings") { countOf<String>(mixed) }
    out += (Meters(700.0) + Meters(600.0)).describe()
    val l = Lazyish()
    l.observed = 3
    l.observed = 5
    l.upper = "quiet"
    out += "${l.expensive} ${l.changes} ${l.upper}"
    out += Greeter.default().greet()
    out += Greeter("Kotlin", "Hi", 2).greet("?")
    out += "v${Greeter.VERSION}"
    var adder = 10
    Registry.register("add") { it + adder }
    Registry.register("sq", fun(x: Int): Int { return x * x })
    adder = 20
    out += "${Registry.run("add", 1)} ${Registry.run("sq", 7)}"
    out += try {
        Checked("x").half.toString()
    } catch (e: IllegalArgumentException) {
        "refused ${e.message}"
    }
    out += Checked("41").half.toString()
    return out
}

fun main() {
    shapesReport().forEach(::println)
}
