package modern.client;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.Moshi;
import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import retrofit2.Call;
import retrofit2.Retrofit;
import retrofit2.converter.moshi.MoshiConverterFactory;
import retrofit2.http.Body;
import retrofit2.http.GET;
import retrofit2.http.POST;
import retrofit2.http.Path;

/**
 * An OkHttp + Retrofit + Moshi client against MockWebServer on loopback:
 * JSON decoded by Moshi through Retrofit, a 404, a POST whose body the
 * server records, an interceptor, and OkHttp called directly. Its output
 * does not depend on timing or ports.
 */
public final class Client {
    public static final class Repo {
        public String name;
        public int stars;
        public List<String> topics;

        @Override
        public String toString() {
            return name + "(" + stars + ", " + topics + ")";
        }
    }

    public static final class Star {
        public String repo;
        public int by;
    }

    interface Api {
        @GET("users/{user}/repos")
        Call<List<Repo>> repos(@Path("user") String user);

        @POST("stars")
        Call<Repo> star(@Body Star star);
    }

    public static void main(String[] args) throws Exception {
        List<String> out = new ArrayList<>();
        try (MockWebServer server = new MockWebServer()) {
            server.enqueue(new MockResponse.Builder()
                    .setHeader("Content-Type", "application/json")
                    .body("[{\"name\":\"okio\",\"stars\":8800,\"topics\":[\"io\",\"kotlin\"]},"
                            + "{\"name\":\"moshi\",\"stars\":9700,\"topics\":[]}]")
                    .build());
            server.enqueue(new MockResponse.Builder().code(404).body("{\"message\":\"Not Found\"}").build());
            server.enqueue(new MockResponse.Builder()
                    .setHeader("Content-Type", "application/json")
                    .body("{\"name\":\"retrofit\",\"stars\":43000,\"topics\":[\"http\"]}")
                    .build());
            server.enqueue(new MockResponse.Builder().body("plain text, 26 characters").build());
            server.start(InetAddress.getLoopbackAddress(), 0);

            List<String> seen = new ArrayList<>();
            Interceptor tag = chain -> {
                Request r = chain.request().newBuilder().header("X-Gate", "modern").build();
                seen.add(r.method() + " " + r.url().encodedPath());
                return chain.proceed(r);
            };
            OkHttpClient http = new OkHttpClient.Builder()
                    .addInterceptor(tag)
                    .callTimeout(20, TimeUnit.SECONDS)
                    .build();
            Moshi moshi = new Moshi.Builder().build();
            Api api = new Retrofit.Builder()
                    .baseUrl(server.url("/"))
                    .client(http)
                    .addConverterFactory(MoshiConverterFactory.create(moshi))
                    .build()
                    .create(Api.class);

            retrofit2.Response<List<Repo>> repos = api.repos("square").execute();
            out.add("repos " + repos.code() + " " + repos.body());
            retrofit2.Response<List<Repo>> missing = api.repos("nobody").execute();
            out.add("missing " + missing.code() + " " + missing.errorBody().string());
            Star star = new Star();
            star.repo = "retrofit";
            star.by = 7;
            retrofit2.Response<Repo> starred = api.star(star).execute();
            out.add("starred " + starred.body());

            try (Response plain = http.newCall(new Request.Builder()
                    .url(server.url("/plain"))
                    .post(RequestBody.create("ping", MediaType.get("text/plain")))
                    .build()).execute()) {
                String body = plain.body().string();
                out.add("plain " + plain.code() + " " + body.length());
            }

            for (int i = 0; i < 4; i++) {
                RecordedRequest r = server.takeRequest(10, TimeUnit.SECONDS);
                String body = r.getBody() == null ? "-" : r.getBody().utf8();
                out.add("server " + r.getMethod() + " " + r.getTarget() + " " + r.getHeaders().get("X-Gate") + " " + body);
            }
            JsonAdapter<Repo> adapter = moshi.adapter(Repo.class);
            try {
                adapter.fromJson("{\"name\":\"bad\",\"stars\":\"many\"}");
                out.add("lenient?");
            } catch (IOException | RuntimeException e) {
                out.add("refused " + e.getClass().getSimpleName());
            }
            out.add("intercepted " + seen);
            http.dispatcher().executorService().shutdown();
            http.connectionPool().evictAll();
        }
        out.forEach(System.out::println);
    }
}
