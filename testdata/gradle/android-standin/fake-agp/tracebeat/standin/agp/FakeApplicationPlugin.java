package tracebeat.standin.agp;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.gradle.api.Plugin;
import org.gradle.api.Project;
import org.gradle.api.artifacts.Configuration;
import org.gradle.api.Task;
import org.gradle.api.file.Directory;
import org.gradle.api.file.RegularFile;
import org.gradle.api.file.RegularFileProperty;
import org.gradle.api.provider.ListProperty;
import org.gradle.api.tasks.compile.JavaCompile;

/**
 * Test stand-in for the Android application plugin (id com.android.application),
 * written against Debian's Gradle 4.4.1. It is NOT AGP: it offers the
 * {@code androidComponents} extension with the AGP 8 API the tracebeat plugin
 * uses, and plays AGP's part around it: it compiles a stand-in SDK
 * (android.jar), a library jar and the app's classes, calls the onVariants
 * callbacks after evaluation (as AGP does), hands every registered
 * CLASSES transform of scope ALL the class directories and jars, sets the
 * output jar, chains the transforms, and packages the final classes of each
 * variant into build/outputs/standin/VARIANT/classes.jar (where AGP would dex).
 *
 * <p>Variants: debug and release. Layout: sdk/ (SDK sources), lib/ (library
 * sources), src/main/java/ (app sources) and, when it exists, src/second/java/:
 * more app sources compiled into a second class directory, as AGP hands a
 * transform Kotlin's classes beside javac's. The project property
 * {@code standinExtraJars} (paths joined by the path separator) adds
 * dependency jars after lib.jar, and so do the files of the
 * {@code implementation} configuration (file dependencies only), resolved
 * once the project is evaluated, as AGP resolves a variant's runtime
 * classpath.
 */
public class FakeApplicationPlugin implements Plugin<Project> {
    static final List<String> VARIANTS = Arrays.asList("debug", "release");

    @Override
    public void apply(Project project) {
        project.getPluginManager().apply("java-base");
        final Configuration implementation = project.getConfigurations().maybeCreate("implementation");
        FakeAndroidComponents components = new FakeAndroidComponents(project);
        project.getExtensions().add("androidComponents", components);

        JavaCompile compileSdk = compile(project, "compileStandinSdk", "sdk", "standin/sdk-classes", project.files());
        ZipClasses androidJar = zip(project, "standinAndroidJar", "standin/android.jar");
        androidJar.setFrom(project.files(compileSdk.getDestinationDir()));
        androidJar.dependsOn(compileSdk);
        components.setBootClasspath(androidJar.getInto());

        JavaCompile compileLib = compile(project, "compileStandinLib", "lib", "standin/lib-classes", project.files());
        ZipClasses libJar = zip(project, "standinLibJar", "standin/libs/lib.jar");
        libJar.setFrom(project.files(compileLib.getDestinationDir()));
        libJar.dependsOn(compileLib);

        JavaCompile compileApp = compile(project, "compileStandinApp", "src/main/java", "standin/app-classes",
                project.files(androidJar.getInto(), libJar.getInto()));
        compileApp.dependsOn(androidJar, libJar);
        List<JavaCompile> compiles = new ArrayList<JavaCompile>(Arrays.asList(compileApp));
        if (project.file("src/second/java").isDirectory()) {
            JavaCompile compileSecond = compile(project, "compileStandinSecond", "src/second/java",
                    "standin/second-classes", project.files(androidJar.getInto(), libJar.getInto()));
            compileSecond.dependsOn(androidJar, libJar);
            compiles.add(compileSecond);
        }
        List<File> extraJars = new ArrayList<File>();
        Object extra = project.findProperty("standinExtraJars");
        if (extra != null) {
            for (String path : extra.toString().split(File.pathSeparator)) {
                extraJars.add(new File(path));
            }
        }

        project.afterEvaluate(p -> {
            List<File> dependencyJars = new ArrayList<File>(extraJars);
            dependencyJars.addAll(implementation.getFiles());
            for (String variant : VARIANTS) {
                FakeVariant v = components.createVariant(variant);
                wireVariant(project, v, components, compiles, libJar, dependencyJars, androidJar, implementation);
            }
        });
    }

    private static void wireVariant(Project project, FakeVariant variant, FakeAndroidComponents components,
            List<JavaCompile> compiles, ZipClasses libJar, List<File> extraJars, ZipClasses androidJar,
            Configuration implementation) {
        String name = variant.getName();
        File buildDir = project.getBuildDir();
        List<RegularFile> jars = new ArrayList<RegularFile>();
        jars.add(regularFile(project, libJar.getInto()));
        for (File jar : extraJars) {
            jars.add(regularFile(project, jar));
        }
        List<Directory> dirs = new ArrayList<Directory>();
        List<Object> producers = new ArrayList<Object>(Arrays.<Object>asList(libJar, implementation));
        for (JavaCompile c : compiles) {
            dirs.add(project.getLayout().getProjectDirectory().dir(c.getDestinationDir().getAbsolutePath()));
            producers.add(c);
        }

        for (FakeScopedArtifacts.Transform<?> transform : variant.getFakeArtifacts().allScope().transforms()) {
            Task task = transform.task();
            ListProperty<RegularFile> inJars = transform.inputJars(task);
            ListProperty<Directory> inDirs = transform.inputDirectories(task);
            RegularFileProperty out = transform.into(task);
            inJars.set(new ArrayList<RegularFile>(jars));
            inDirs.set(new ArrayList<Directory>(dirs));
            // AGP chooses where a transform writes; the location is not API.
            out.set(new File(buildDir, "intermediates/classes/" + name + "/" + task.getName() + "/classes.jar"));
            // Real AGP passes providers that carry their producers; Gradle 4.4 needs them spelled out.
            task.dependsOn(producers.toArray());
            task.dependsOn(androidJar);
            jars = new ArrayList<RegularFile>();
            jars.add(out.get());
            dirs = new ArrayList<Directory>();
            producers = new ArrayList<Object>(Arrays.<Object>asList(task));
        }

        ZipClasses pack = zip(project, "package" + capitalize(name) + "Classes",
                "outputs/standin/" + name + "/classes.jar");
        List<File> finalClasses = new ArrayList<File>();
        for (Directory d : dirs) {
            finalClasses.add(d.getAsFile());
        }
        for (RegularFile j : jars) {
            finalClasses.add(j.getAsFile());
        }
        pack.setFrom(project.files(finalClasses));
        pack.dependsOn(producers.toArray());
        Task assembleVariant = project.getTasks().create("assemble" + capitalize(name));
        assembleVariant.dependsOn(pack);
        project.getTasks().getByName("assemble").dependsOn(assembleVariant);
    }

    private static JavaCompile compile(Project project, String name, String sourceDir, String outDir,
            Object classpath) {
        JavaCompile c = project.getTasks().create(name, JavaCompile.class);
        c.source(project.file(sourceDir));
        c.setDestinationDir(new File(project.getBuildDir(), outDir));
        c.setClasspath(project.files(classpath));
        c.setSourceCompatibility("1.8");
        c.setTargetCompatibility("1.8");
        return c;
    }

    private static ZipClasses zip(Project project, String name, String into) {
        ZipClasses z = project.getTasks().create(name, ZipClasses.class);
        z.setInto(new File(project.getBuildDir(), into));
        return z;
    }

    private static RegularFile regularFile(Project project, File file) {
        return project.getLayout().getProjectDirectory().file(file.getAbsolutePath());
    }

    static String capitalize(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
