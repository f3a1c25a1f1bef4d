package app;

// A second user of Retired.call.
class Other {
    static void use() {
        api.Retired.call();
    }
}
