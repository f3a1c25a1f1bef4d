package com.example.demo.ui;

import android.os.Bundle;
import com.example.demo.service.InMemoryOrderRepository;
import com.example.demo.service.OrderService;

/** The first screen; has no onWindowFocusChanged, so tracebeat adds one. */
public class MainActivity extends BaseActivity {
    private OrderService orders;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        orders = new OrderService(new InMemoryOrderRepository());
        System.out.println("created " + getTitle());
    }

    @Override
    protected String screenName() {
        return "main";
    }

    public OrderService orders() {
        return orders;
    }
}
