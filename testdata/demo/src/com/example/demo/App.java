package com.example.demo;

import android.os.Bundle;
import com.example.demo.service.Order;
import com.example.demo.service.OrderService;
import com.example.demo.service.PriceFeed;
import com.example.demo.ui.MainActivity;
import com.example.demo.ui.SettingsActivity;
import com.example.demo.util.Validator;

/** Entry point: drives the activities and services like a short session. */
public class App {
    public static void main(String[] args) throws InterruptedException {
        Thread feed = new Thread(new PriceFeed("tea", "cake", "coffee"), "price-feed");
        feed.start();
        Bundle state = new Bundle();
        state.putString("user", args.length > 0 ? args[0] : "demo");

        MainActivity main = new MainActivity();
        main.start(state);
        main.onWindowFocusChanged(true);

        SettingsActivity settings = new SettingsActivity();
        settings.start(state);
        settings.onWindowFocusChanged(true);

        OrderService orders = main.orders();
        orders.place(new Order("tea", 2, 350));
        orders.place(new Order("cake", 1, 420));
        try {
            orders.place(new Order("nothing", 0, 100));
        } catch (IllegalArgumentException e) {
            System.out.println("rejected: " + e.getMessage());
        }
        System.out.println(orders.summary());
        System.out.println("valid name: " + Validator.isValidName(state.getString("user")));
        settings.finish();
        main.finish();
        feed.join();
    }
}
