// A class of the default package whose name is two letters long.
public class Go {
    static Go self = new Go();
}
